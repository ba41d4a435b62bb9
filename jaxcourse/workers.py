"""How many grading workers to run, and which accelerator each one may use."""
from __future__ import annotations

import glob
import os
import re

TPU_PORT_BASE = 8476


def usable_cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def accelerator_count(platform: str) -> int:
    """Chips or GPUs visible on this host, from their device nodes."""
    if platform == "gpu":
        return len([p for p in glob.glob("/dev/nvidia*") if re.fullmatch(r"/dev/nvidia\d+", p)])
    if platform == "tpu":
        accel = [p for p in glob.glob("/dev/accel*") if re.fullmatch(r"/dev/accel\d+", p)]
        vfio = [p for p in glob.glob("/dev/vfio/*") if re.fullmatch(r"/dev/vfio/\d+", p)]
        return len(accel) or len(vfio)
    return 0


def default_workers(platform: str) -> int:
    """Usable cores on cpu; one worker per chip on tpu and per GPU on gpu."""
    if platform == "cpu":
        return usable_cores()
    return max(1, accelerator_count(platform))


def worker_env(platform: str, index: int, lesson_env: dict[str, str] | None = None) -> dict[str, str]:
    """The environment that confines worker `index` to its own device, plus what the lesson needs."""
    return {**_device_env(platform, index), **(lesson_env or {})}


def _device_env(platform: str, index: int) -> dict[str, str]:
    if platform == "tpu":
        # One process per chip, the scheme JAX's own CI uses for parallel TPU tests.
        return {"TPU_VISIBLE_CHIPS": str(index), "ALLOW_MULTIPLE_LIBTPU_LOAD": "true",
                "TPU_CHIPS_PER_PROCESS_BOUNDS": "1,1,1", "TPU_PROCESS_BOUNDS": "1,1,1",
                "TPU_PROCESS_PORT": str(TPU_PORT_BASE + index)}
    if platform == "gpu":
        # PCI order, so that GPU i is /dev/nvidia<i>, the one node its sandbox binds.
        return {"CUDA_VISIBLE_DEVICES": str(index), "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
                "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    return {}
