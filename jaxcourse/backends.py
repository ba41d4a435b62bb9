"""Where notebooks execute: sandboxes on this host ("local"), or Ray tasks ("ray").

A backend prepares once per grading run, checks on request that the platform is usable
(preflight), says how many workers it runs by default, and hands out executors: functions that
run one instrumented notebook and return its Execution. Register a new one in BACKENDS.
"""
from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Callable

from nbformat.notebooknode import NotebookNode

from . import ray_backend
from .execute import CompilationCache, Execution, Sandbox, SandboxSpec, preflight
from .platforms import default_workers, worker_env

if TYPE_CHECKING:
    from .grade import Options

Executor = Callable[[NotebookNode], Execution]


class WarmSandboxes:
    """One started sandbox waiting per worker slot, as long as notebooks remain to run.

    Each sandbox serves exactly one notebook and is then discarded, so nothing crosses
    submissions; only the kernel's start-up and imports overlap with other work. The first
    ones start at once, while the grader prepares its expected values.
    """

    def __init__(self, options: Options, cache: CompilationCache | None, runs: int, lesson_env: dict[str, str],
                 workers: int):
        self.options, self.cache, self.remaining, self.lesson_env = options, cache, runs, lesson_env
        self.lock = threading.Lock()
        self.ready: dict[int, Sandbox] = {}
        if options.warm:
            for slot in range(min(workers, runs)):
                self._start_ahead(slot)

    def _spec(self, slot: int) -> SandboxSpec:
        o = self.options
        return SandboxSpec(o.platform, o.limits, worker_env(o.platform, slot, self.lesson_env), o.sandbox,
                           o.preimport, self.cache)

    def _start_ahead(self, slot: int) -> None:
        """Start `slot`'s next sandbox. If it cannot start now, the notebook that needs it tries again
        and, failing, is reported as an infrastructure failure; the notebook running now is not."""
        try:
            sandbox = Sandbox(self._spec(slot))
        except Exception:
            return
        with self.lock:
            self.ready[slot] = sandbox

    def executor(self, slot: int) -> Executor:
        def execute(nb: NotebookNode) -> Execution:
            with self.lock:
                sandbox = self.ready.pop(slot, None)
                self.remaining -= 1
                warm_next = self.options.warm and self.remaining > len(self.ready)
            sandbox = Sandbox.warm_or_new(sandbox, self._spec(slot))
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

    def prepare(self, options: Options) -> None:
        pass

    def preflight(self, platform: str) -> None:
        preflight(platform)

    def default_workers(self, platform: str) -> int:
        return default_workers(platform)

    def single(self, options: Options, lesson_env: dict[str, str]) -> Executor:
        spec = SandboxSpec(options.platform, options.limits, worker_env(options.platform, 0, lesson_env), options.sandbox,
                           draw_figures=options.draw_figures)
        return Sandbox(spec).run

    def executors(self, options: Options, workers: int, runs: int, lesson_env: dict[str, str],
                  cache: CompilationCache | None) -> tuple[list[Executor], Callable[[], None]]:
        pool = WarmSandboxes(options, cache, runs, lesson_env, workers)
        return [pool.executor(slot) for slot in range(workers)], pool.close


BACKENDS = {"local": Local(), "ray": ray_backend.Ray()}
