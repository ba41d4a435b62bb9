"""Where notebooks execute: the `Backend` protocol, and the registry the command line reads.

"local" runs sandboxes on this host, "ray" runs them as Ray tasks (`ray_backend`), and
"in-process" runs the instructor's notebooks kernel-free in this process (`kernelfree`). A new
backend is one module implementing `Backend` and one line in BACKENDS.
"""
from __future__ import annotations

import threading
from typing import Protocol, runtime_checkable

from nbformat.notebooknode import NotebookNode

from . import kernelfree, ray_backend
from .bubblewrap import CompilationCache
from .execute import RunSettings, Sandbox, preflight
from .supervise import Execution, Executor, Workers
from .platforms import default_workers, usable_cores


@runtime_checkable
class Backend(Protocol):
    """Runs notebooks for one grading run. Each executor it hands out runs one instrumented
    notebook at a time and returns its Execution."""
    shares_files: bool  # its sandboxes can mount this host's folders (the compilation cache)
    grades: bool        # it may run submissions; False: the instructor's notebooks only

    def prepare(self, address: str | None) -> None:
        """Once per run, before anything else: connect to the cluster at `address` if it has one."""

    def preflight(self, platform: str) -> None:
        """Raise PlatformUnavailable unless JAX can use `platform` where this backend runs notebooks."""

    def default_workers(self, platform: str) -> int:
        """Notebooks it runs at once when the user does not say."""

    def single(self, settings: RunSettings) -> Executor:
        """An executor for one notebook of the instructor's (the trusted run, recording figures)."""

    def executors(self, settings: RunSettings, workers: int, runs: int, cache: CompilationCache | None) -> Workers:
        """`workers` executors, for about `runs` notebooks in all until Workers.expect says how
        many; `cache` is the lesson's compilation cache where `shares_files`."""


# Cores left to the grading run's start: the solution run, the cache fill and the grader itself.
START_CORES = 3


class WarmSandboxes:
    """One started sandbox waiting per worker slot, as long as notebooks remain to run.

    Each sandbox serves exactly one notebook and is then discarded, so nothing crosses
    submissions; only the kernel's start-up and imports overlap with other work. The first ones
    start at once, beside the grading run's start, on the cores it leaves free (none on 2 cores,
    where they only slowed it); `expect` starts the others.
    """

    def __init__(self, settings: RunSettings, cache: CompilationCache | None, runs: int, workers: int):
        self.settings, self.cache, self.workers = settings, cache, workers
        self.lock = threading.Lock()
        self.ready: dict[int, Sandbox] = {}
        self.remaining = runs
        self._keep_started(min(runs, max(0, usable_cores() - START_CORES)))

    def expect(self, runs: int) -> None:
        """`runs` notebooks are to come: one sandbox started ahead for each, up to one a worker."""
        with self.lock:
            self.remaining = runs
        self._keep_started(runs)

    def _keep_started(self, runs: int) -> None:
        """Discard or start sandboxes so that one waits for each of `runs` notebooks, up to one a worker."""
        with self.lock:
            wanted = min(self.workers, runs) if self.settings.warm else 0
            unused = [self.ready.pop(slot) for slot in sorted(self.ready)[wanted:]]
            missing = [slot for slot in range(self.workers) if slot not in self.ready][:wanted - len(self.ready)]
        for sandbox in unused:
            sandbox.discard()
        for slot in missing:
            self._start_ahead(slot)

    def _start_ahead(self, slot: int) -> None:
        """Start `slot`'s next sandbox. If it cannot start now, the notebook that needs it tries again
        and, failing, is reported as an infrastructure failure; the notebook running now is not."""
        try:
            sandbox = Sandbox(self.settings.spec(slot, self.cache))
        except Exception:
            return
        with self.lock:
            self.ready[slot] = sandbox

    def executor(self, slot: int) -> Executor:
        def execute(nb: NotebookNode) -> Execution:
            with self.lock:
                sandbox = self.ready.pop(slot, None)
                self.remaining -= 1
                warm_next = self.settings.warm and self.remaining > len(self.ready)
            sandbox = Sandbox.warm_or_new(sandbox, self.settings.spec(slot, self.cache))
            if warm_next:
                self._start_ahead(slot)
            return sandbox.run(nb)
        return execute

    def close(self) -> None:
        with self.lock:
            for sandbox in self.ready.values():
                sandbox.discard()
            self.ready.clear()


class Local:
    """Bubblewrap sandboxes on this host, one worker per core, chip or GPU, warmed ahead."""
    shares_files = True  # sandboxes can mount this host's compilation cache
    grades = True

    def prepare(self, address: str | None) -> None:
        pass

    def preflight(self, platform: str) -> None:
        preflight(platform)

    def default_workers(self, platform: str) -> int:
        return default_workers(platform)

    def single(self, settings: RunSettings) -> Executor:
        return Sandbox(settings.spec(0)).run

    def executors(self, settings: RunSettings, workers: int, runs: int, cache: CompilationCache | None) -> Workers:
        pool = WarmSandboxes(settings, cache, runs, workers)
        return Workers([pool.executor(slot) for slot in range(workers)], pool.expect, pool.close)


BACKENDS: dict[str, Backend] = {
    "local": Local(),
    "ray": ray_backend.Ray(),
    "in-process": kernelfree.InProcess(),
}
GRADING_BACKENDS = tuple(name for name, backend in BACKENDS.items() if backend.grades)
