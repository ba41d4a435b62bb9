"""What one sandbox may use, and how that is enforced: the `Limits`, a throwaway cgroup per
sandbox (memory and tasks, where the host lets us make one), rlimits set by the launcher before
the sandbox starts, and the watchdog that measures a sandbox's process tree where no cgroup could
be made (an ordinary account on a TPU VM).
"""
from __future__ import annotations

import functools
import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import psutil


@dataclass(frozen=True)
class Limits:
    cell_timeout: int = 120          # seconds; JIT compilation of a lesson cell fits easily
    notebook_timeout: int = 900      # seconds of wall clock for the whole notebook
    memory_bytes: int = 4 * 2**30
    max_processes: int = 1024       # tasks, threads included: XLA starts a thread pool per core
    output_bytes: int = 8 * 2**20    # printed output kept per notebook
    scratch_bytes: int = 512 * 2**20  # each of the sandbox's tmpfs: home, /tmp and /dev/shm

    @property
    def out_bytes(self) -> int:
        """What the output folder may hold: the executed notebook with its outputs, and no more."""
        return self.output_bytes * 4 + 64 * 2**20


class Cgroup:
    """A throwaway cgroup (v2, or v1 memory+pids) that caps one sandbox; absent if the host forbids it."""

    def __init__(self, limits: Limits):
        self.dirs: list[Path] = []
        self.oom_files: list[Path] = []
        self.pids_events: list[Path] = []
        name = f"jaxcourse-{uuid.uuid4().hex[:12]}"
        v2 = Path("/sys/fs/cgroup")
        try:
            if (v2 / "cgroup.controllers").exists():
                own = Path(open("/proc/self/cgroup").read().split("::", 1)[1].strip().lstrip("/"))
                parent = v2 / own
                group = parent / name
                group.mkdir()
                self.dirs.append(group)
                (group / "memory.max").write_text(str(limits.memory_bytes))
                if (group / "memory.swap.max").exists():
                    (group / "memory.swap.max").write_text("0")
                (group / "pids.max").write_text(str(limits.max_processes))
                self.oom_files.append(group / "memory.events")
                self.pids_events.append(group / "pids.events")
            else:
                for controller, setting, value in (("memory", "memory.limit_in_bytes", limits.memory_bytes),
                                                   ("pids", "pids.max", limits.max_processes)):
                    group = Path("/sys/fs/cgroup") / controller / name
                    group.mkdir()
                    self.dirs.append(group)
                    (group / setting).write_text(str(value))
                    if controller == "memory":
                        self.oom_files.append(group / "memory.oom_control")
                    else:
                        self.pids_events.append(group / "pids.events")
        except OSError:
            self.close()
            self.dirs = []

    @property
    def active(self) -> bool:
        return bool(self.dirs)

    @staticmethod
    def _counter(paths: list[Path], name: str) -> int:
        total = 0
        for path in paths:
            try:
                counts = dict(line.split()[:2] for line in path.read_text().splitlines() if len(line.split()) >= 2)
                total += int(counts.get(name, 0))
            except (OSError, ValueError):
                pass
        return total

    def memory_exhausted(self) -> bool:
        return self._counter(self.oom_files, "oom_kill") > 0

    def processes_exhausted(self) -> bool:
        return self._counter(self.pids_events, "max") > 0

    def close(self) -> None:
        for group in reversed(self.dirs):
            for _ in range(50):
                try:
                    group.rmdir()
                    break
                except OSError:
                    for pid in (group / "cgroup.procs").read_text().split() if (group / "cgroup.procs").exists() else []:
                        try:
                            os.kill(int(pid), 9)
                        except OSError:
                            pass
                    time.sleep(0.1)


def _memfd_bytes(pid: int, seen: set[tuple[int, int]]) -> int:
    """Memory held by a process's memfds (memfd_create), which no RSS counts until mapped."""
    total = 0
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    for fd in fds:
        path = f"/proc/{pid}/fd/{fd}"
        try:
            if not os.readlink(path).startswith("/memfd:"):
                continue
            info = os.stat(path)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) not in seen:  # one memfd open in several processes counts once
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


# Mappings of an accelerator's memory: resident as the kernel counts it (a TPU runtime maps its chip's
# 16 GiB), but no host memory, and no memory cgroup charges them.
DEVICE_MAPPINGS = ("anon_inode:[vfio-device]", "/dev/accel", "/dev/vfio/", "/dev/nvidia")


def device_mapped_bytes(maps: str) -> int:
    """The size of the device mappings listed in a /proc/PID/maps text."""
    total = 0
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].startswith(DEVICE_MAPPINGS):
            start, end = fields[0].split("-")
            total += int(end, 16) - int(start, 16)
    return total


def _device_mapped(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/maps") as maps:
            return device_mapped_bytes(maps.read())
    except OSError:
        return 0


def _children_from_task_files(pid: int) -> list[int]:
    """What /proc/PID/task/TID/children lists for each thread of `pid`: a few reads, where psutil
    reads the status of every process on the host. Linux lists child processes; gVisor lists
    their threads too."""
    found = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as children:
                found += [int(child) for child in children.read().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return found


@functools.cache  # once per process: the kernel (or gVisor) keeps the files or does not
def task_files_list_children() -> bool:
    """Whether /proc/PID/task/TID/children lists this process's own child (not every kernel and
    sandbox runtime keeps the file, or fills it)."""
    try:
        child = subprocess.Popen(["sleep", "5"])
    except OSError:
        return False
    try:
        return child.pid in _children_from_task_files(os.getpid())
    except OSError:
        return False
    finally:
        child.kill()
        child.wait()


def leads_its_threads(pid: int) -> bool:
    """Whether `pid` is a process (its thread group's leader), not one more thread of another."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("Tgid:"):
                    return int(line.split()[1]) == pid
    except (OSError, ValueError):
        pass
    return False


def _tree(root: int, is_process: Callable[[int], bool]) -> list[int]:
    """`root` and all its descendant processes, each once."""
    if not task_files_list_children():
        try:
            return [root, *(child.pid for child in psutil.Process(root).children(recursive=True))]
        except psutil.Error:
            return []
    pids, seen, index = [root], {root}, 0
    while index < len(pids):
        try:
            children = _children_from_task_files(pids[index])
        except OSError:  # it ended meanwhile
            children = []
        for child in children:
            if child not in seen:
                seen.add(child)
                if is_process(child):
                    pids.append(child)
        index += 1
    return pids


def _resident_and_threads(pid: int) -> tuple[int, int]:
    """Resident bytes (device mappings included) and threads of one process; zeros once it ended."""
    try:
        with open(f"/proc/{pid}/statm") as statm:
            resident = int(statm.read().split()[1]) * PAGE_BYTES
        with open(f"/proc/{pid}/stat") as stat:
            threads = int(stat.read().rsplit(")", 1)[1].split()[17])  # field 20, num_threads
    except (OSError, ValueError, IndexError):
        return 0, 0
    return resident, threads


PAGE_BYTES = os.sysconf("SC_PAGE_SIZE")


def tree_usage(root: int, memory_cap: int | None = None,
               is_process: Callable[[int], bool] = leads_its_threads) -> tuple[int, int]:
    """Host memory (resident, less device mappings, and memfds) and tasks (threads) of the process
    tree under pid `root`.

    With `memory_cap`, device mappings are read (from /proc/PID/maps, the costly part of a poll) only
    when the total with them passes the cap: below it, the memory returned may include them."""
    pids = _tree(root, is_process)
    memory, tasks, memfds = 0, 0, set()
    for pid in pids:
        resident, threads = _resident_and_threads(pid)
        memory += resident + _memfd_bytes(pid, memfds)
        tasks += threads  # threads count toward the task cap, as in the pids cgroup
    if memory_cap is None or memory > memory_cap:
        memory -= min(memory, sum(_device_mapped(pid) for pid in pids))
    return memory, tasks


class Watchdog:
    """Where no cgroup caps a sandbox, measures its process tree against its limits. Which pids
    are processes is read once per pid: a pid stays a process or a thread while it lives."""

    def __init__(self, root: int, limits: Limits):
        self.root, self.limits = root, limits
        self.processes: dict[int, bool] = {}

    def _is_process(self, pid: int) -> bool:
        if pid not in self.processes:
            self.processes[pid] = leads_its_threads(pid)
        return self.processes[pid]

    def verdict(self) -> str:
        """"memory" or "processes" when the tree is over its limit, else ""."""
        memory, tasks = tree_usage(self.root, self.limits.memory_bytes, self._is_process)
        limits = self.limits
        return "memory" if memory > limits.memory_bytes else "processes" if tasks > limits.max_processes else ""


# Joins the cgroups and sets rlimits, then becomes the sandbox. A separate exec rather than
# preexec_fn, which is unsafe when the grader runs workers in threads.
LAUNCHER = """
import os, resource, sys
split = sys.argv.index("--")
file_cap, procs_files = int(sys.argv[1]), sys.argv[2:split]
for procs in procs_files:
    with open(procs, "w") as handle:
        handle.write(str(os.getpid()))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
resource.setrlimit(resource.RLIMIT_FSIZE, (file_cap, file_cap))
os.execv(sys.argv[split + 1], sys.argv[split + 1:])
"""


def launch_command(cmd: list[str], limits: Limits, cgroup: Cgroup) -> list[str]:
    procs = [str(group / "cgroup.procs") for group in cgroup.dirs]
    return [sys.executable, "-S", "-c", LAUNCHER, str(limits.out_bytes), *procs, "--", *cmd]
