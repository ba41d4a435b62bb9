"""What a JAX platform is to the grader: one frozen `Platform` per platform, in one table.

Everything that differs between cpu, gpu and tpu lives here: the JAX_PLATFORMS value, how many
devices this host has, the environment that confines a worker to its own device, the device
nodes and binds its sandbox gets, the Ray resource it reserves, and whether the grader gives a
lesson virtual devices. Adding a platform is one entry in TABLE; no other module names one.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

TPU_PORT_BASE = 8476
GPU_CONTROL_NODES = ("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset")


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _numbered(dev: Path, pattern: str) -> dict[int, str]:
    """Device nodes under `dev` whose path (relative to it) matches `pattern`, by their number."""
    found = {}
    for path in dev.glob("*") if "/" not in pattern else dev.glob(pattern.split("/")[0] + "/*"):
        match = re.fullmatch(pattern, path.relative_to(dev).as_posix())
        if match:
            found[int(match.group(1))] = str(path)
    return found


def _visible(value: str | None) -> list[int] | None:
    if value is None:
        return None
    return [int(part) for part in value.split(",") if part.strip().isdigit()]


def _gpu_nodes(device_env: dict[str, str], dev: Path) -> list[str]:
    gpus = _numbered(dev, r"nvidia(\d+)")
    chosen = _visible(device_env.get("CUDA_VISIBLE_DEVICES"))
    return ([str(dev / name) for name in GPU_CONTROL_NODES if (dev / name).exists()]
            + [gpus[i] for i in sorted(gpus) if chosen is None or i in chosen])


def _tpu_nodes(device_env: dict[str, str], dev: Path) -> list[str]:
    chosen = _visible(device_env.get("TPU_VISIBLE_CHIPS"))
    chips = _numbered(dev, r"accel(\d+)")
    if chips:
        return [chips[i] for i in sorted(chips) if chosen is None or i in chosen]
    # Chips behind VFIO: one IOMMU group per chip, in group order.
    groups = [path for _, path in sorted(_numbered(dev, r"vfio/(\d+)").items())]
    control = [str(dev / "vfio" / "vfio")] if (dev / "vfio" / "vfio").exists() else []
    return control + [path for i, path in enumerate(groups) if chosen is None or i in chosen]


def _tpu_count(dev: Path = Path("/dev")) -> int:
    return len(_numbered(dev, r"accel(\d+)")) or len(_numbered(dev, r"vfio/(\d+)"))


def _tpu_slot(index: int) -> dict[str, str]:
    # One process per chip, the scheme JAX's own CI uses for parallel TPU tests.
    return {"TPU_VISIBLE_CHIPS": str(index), "ALLOW_MULTIPLE_LIBTPU_LOAD": "true",
            "TPU_CHIPS_PER_PROCESS_BOUNDS": "1,1,1", "TPU_PROCESS_BOUNDS": "1,1,1",
            "TPU_PROCESS_PORT": str(TPU_PORT_BASE + index)}


def _gpu_slot(index: int) -> dict[str, str]:
    # PCI order, so that GPU i is /dev/nvidia<i>, the one node its sandbox binds.
    return {"CUDA_VISIBLE_DEVICES": str(index), "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
            "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}


@dataclass(frozen=True, eq=False)  # one value per platform, compared by identity
class Platform:
    name: str
    jax_platforms: str                    # JAX_PLATFORMS for a run on it
    device_count: Callable[[], int]       # devices on this host: one grading worker each
    slot_env: Callable[[int], dict[str, str]] = lambda index: {}  # confines worker `index` to its device
    device_nodes: Callable[[dict[str, str], Path], list[str]] = lambda device_env, dev: []
    binds: tuple[str, ...] = ()           # bwrap options the sandbox adds for the platform's driver
    ray_resource: str = "CPU"             # what Ray calls the device
    ray_request: dict = field(default_factory=lambda: {"num_cpus": 1})  # what one execution reserves
    virtual_devices: bool = False         # the grader gives a lesson as many devices as it declares
    # A device serves one process at a time: the solution and the cache-filling run take turns.
    exclusive: bool = True
    # Host memory its runtime holds in every process, allowed on top of a run's memory limit.
    runtime_memory: int = 0

    def worker_env(self, index: int, lesson_env: dict[str, str] | None = None) -> dict[str, str]:
        """The environment that confines worker `index` to its own device, plus what the lesson needs."""
        return {**self.slot_env(index), **(lesson_env or {})}

    def lesson_env(self, devices: int) -> dict[str, str]:
        """What a lesson that declares `devices` devices adds to each of its runs."""
        return {"JAX_NUM_CPU_DEVICES": str(devices)} if self.virtual_devices and devices > 1 else {}


# JAX_PLATFORMS names an accelerator first (JAX's default backend, which the receipt proves), with
# the host CPU beside it, where jax.debug.print and callbacks run.
TABLE: dict[str, Platform] = {p.name: p for p in (
    Platform("cpu", "cpu", usable_cores, virtual_devices=True, exclusive=False),
    Platform("gpu", "gpu,cpu", lambda: len(_numbered(Path("/dev"), r"nvidia(\d+)")), _gpu_slot, _gpu_nodes,
             binds=("--ro-bind-try", "/proc/driver/nvidia", "/proc/driver/nvidia"),
             ray_resource="GPU", ray_request={"num_cpus": 1, "num_gpus": 1}),
    Platform("tpu", "tpu,cpu", _tpu_count, _tpu_slot, _tpu_nodes,
             ray_resource="TPU", ray_request={"num_cpus": 1, "resources": {"TPU": 1}}, runtime_memory=8 * 2**30),
)}
NAMES = tuple(TABLE)


def default_workers(platform: str) -> int:
    """One worker per device: usable cores on cpu, chips on tpu, GPUs on gpu (at least one)."""
    return max(1, TABLE[platform].device_count())


def worker_env(platform: str, index: int, lesson_env: dict[str, str] | None = None) -> dict[str, str]:
    return TABLE[platform].worker_env(index, lesson_env)
