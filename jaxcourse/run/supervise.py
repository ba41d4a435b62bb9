"""The supervisor: it watches one started sandbox until it ends, and says how it ended.

It stops the sandbox at the notebook's wall-clock limit, when its output folder grows past the
cap, and, where no cgroup caps it, when the watchdog finds its processes over a limit. It keeps
the start of what the runner prints, for the grader's log only, and turns the runner's exit status
and the notebook it wrote into an `Execution`.
"""
from __future__ import annotations

import os
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import nbformat

from . import safefs
from .bubblewrap import SandboxUnavailable
from .limits import Cgroup, Limits, Watchdog
from .runner import EXIT_NO_KERNEL, RUNNER_EXITS, read_executed

OUT_ENTRIES = 1000  # files and folders the output folder may hold; the runner writes one
POLL_SECONDS = 0.05
CHECK_SHARE = 20
MAX_CHECK_SECONDS = 0.5  # however many sandboxes run: how long a runaway one may go unchecked
KEPT_BYTES = 256 * 1024  # of each stream


class KernelDidNotStart(SandboxUnavailable):
    """The kernel never ran a cell: an infrastructure failure, graded again on the next run."""


@dataclass
class Execution:
    notebook: nbformat.NotebookNode | None   # the executed notebook, None when unreadable
    fatal: str = ""                          # why the run ended early, if it did
    timed_out: bool = False                  # the notebook's wall-clock limit was hit
    limit_hit: str = ""                      # "memory", "processes" or "output" when a cap ended it
    seconds: float = 0.0
    stderr_tail: str = field(default="", repr=False)
    node: str = ""                           # the Ray node that ran it; empty when it ran on this host


Executor = Callable[[nbformat.NotebookNode], Execution]


@dataclass
class Workers:
    """One executor per worker slot for the notebooks of one run; `close` when they are done.

    A pool starts before its run knows how many notebooks it has: `expect(runs)`, called once
    that is known and before the first notebook, says how many are to come, and no sandbox
    starts ahead for more."""
    executors: list[Executor]
    expect: Callable[[int], None]
    close: Callable[[], None]


class Output:
    """The start of what a started process prints, read by a thread per stream so that it never
    blocks on a full pipe; nothing in it is interpreted."""

    def __init__(self, proc: subprocess.Popen):
        self.chunks: dict[str, list[bytes]] = {"stdout": [], "stderr": []}
        self.readers = [threading.Thread(target=self._drain, args=(stream, self.chunks[name]), daemon=True)
                        for name, stream in (("stdout", proc.stdout), ("stderr", proc.stderr))]
        for reader in self.readers:
            reader.start()

    @staticmethod
    def _drain(stream, chunks: list[bytes]) -> None:
        kept = 0
        try:
            for chunk in iter(lambda: stream.read(65536), b""):
                if kept < KEPT_BYTES:
                    chunks.append(chunk)
                    kept += len(chunk)
        except (OSError, ValueError):  # closed by the sandbox's discard after a runner that would not die
            pass

    def join(self) -> None:
        for reader in self.readers:
            reader.join(timeout=5)

    def stderr(self) -> str:
        return b"".join(self.chunks["stderr"]).decode("utf-8", "replace")


def kill(proc: subprocess.Popen) -> None:
    """Kill the sandbox's whole process group, and reap it."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            pass
    proc.wait()


def _output_over(out: Path, limits: Limits) -> str:
    size, entries = safefs.tree_usage(out, OUT_ENTRIES)
    return "output" if size > limits.out_bytes or entries > OUT_ENTRIES else ""


class Watching:
    """How many sandboxes are being watched at once in this process."""

    def __init__(self):
        self.lock, self.count = threading.Lock(), 0

    def __enter__(self) -> "Watching":
        with self.lock:
            self.count += 1
        return self

    def __exit__(self, *exc) -> None:
        with self.lock:
            self.count -= 1


WATCHING = Watching()


def _watch(proc: subprocess.Popen, limits: Limits, cgroup: Cgroup, out: Path) -> tuple[bool, str]:
    """Wait for `proc` to end; (timed out, cap hit) when it had to be stopped first.

    The caps are checked every POLL_SECONDS, or less often where the checks of all the sandboxes
    watched at once would take more than 1/CHECK_SHARE of a core (gVisor's /proc answered a
    watchdog's check in 2 to 10 ms on a TPU VM), and at least every MAX_CHECK_SECONDS."""
    start = next_check = time.monotonic()
    watchdog = None if cgroup.active else Watchdog(proc.pid, limits)
    with WATCHING:
        while proc.poll() is None:
            now = time.monotonic()
            if now - start > limits.notebook_timeout:
                return True, ""
            if now >= next_check:
                verdict = (watchdog.verdict() if watchdog else "") or _output_over(out, limits)
                if verdict:
                    return False, verdict
                done = time.monotonic()
                spacing = CHECK_SHARE * (done - now) * WATCHING.count
                next_check = done + min(MAX_CHECK_SECONDS, max(POLL_SECONDS, spacing))
            time.sleep(POLL_SECONDS)
    return False, ""


def supervise(proc: subprocess.Popen, output: Output, limits: Limits, cgroup: Cgroup, out: Path) -> Execution:
    """Watch the started runner `proc` until it ends, then read the notebook it wrote into `out`."""
    start = time.monotonic()
    try:
        timed_out, limit_hit = _watch(proc, limits, cgroup, out)
    finally:
        kill(proc)
        output.join()
    if cgroup.active and not limit_hit and proc.returncode != 0:
        limit_hit = "memory" if cgroup.memory_exhausted() else "processes" if cgroup.processes_exhausted() else ""
    seconds, stderr = time.monotonic() - start, output.stderr()
    fatal = ""
    if limit_hit == "memory":
        fatal = f"memory limit of {limits.memory_bytes // 2**20} MiB exceeded"
    elif limit_hit == "processes":
        fatal = f"process limit of {limits.max_processes} exceeded"
    elif limit_hit == "output":
        fatal = "output size limit exceeded"
    elif timed_out:
        fatal = f"notebook ran longer than {limits.notebook_timeout}s"
    elif proc.returncode == EXIT_NO_KERNEL:
        failure = KernelDidNotStart("the kernel did not start")
        failure.add_note(f"runner stderr (for the grader's log only):\n{stderr[-2000:]}")
        raise failure
    elif proc.returncode in RUNNER_EXITS:
        timed_out, fatal = RUNNER_EXITS[proc.returncode]
    elif proc.returncode != 0:
        fatal = f"the notebook runner exited with status {proc.returncode}"
    notebook, refused = read_executed(out / "executed.ipynb", limits.out_bytes)
    return Execution(notebook=notebook, fatal=refused or fatal, timed_out=timed_out, limit_hit=limit_hit,
                     seconds=seconds, stderr_tail=stderr[-4000:])
