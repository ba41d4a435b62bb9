"""Grade on a Ray cluster: each notebook runs in the same sandbox, on whichever node Ray picks.

A single run (the instructor's solution) is a Ray task. Grading a class uses one actor per
worker, which keeps its next sandbox started while it grades, as the local backend does.

Every node needs this package, bubblewrap and the same Python environment; the driver keeps
the gradebook, so sanitizing, scoring and recording stay where they run locally.
"""
from __future__ import annotations

import dataclasses
import os
import threading

from nbformat.notebooknode import NotebookNode

from .execute import BackendUnavailable, RunSettings, Sandbox
from .execute import preflight as local_preflight
from .supervise import Execution, Workers
from .platforms import TABLE


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise BackendUnavailable("--backend ray needs Ray: pip install -e '.[ray]'") from exc
    return ray


def connect(address: str | None) -> None:
    """Join the cluster at `address`, or start a local one when it is None."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # a grader does not report home
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)


def default_workers(platform: str) -> int:
    return max(1, int(_ray().cluster_resources().get(TABLE[platform].ray_resource, 1)))


def _slot(platform: str) -> int | None:
    """The accelerator Ray assigned to this task or actor, if any."""
    ids = _ray().get_runtime_context().get_accelerator_ids().get(TABLE[platform].ray_resource) or []
    return int(ids[0]) if ids else None


def _on_this_node(execution: Execution) -> Execution:
    """The execution, naming the node it ran on (the graded run's metadata keeps it)."""
    return dataclasses.replace(execution, node=_ray().get_runtime_context().get_node_id())


def _execute(nb: NotebookNode, settings: RunSettings) -> Execution:
    return _on_this_node(Sandbox(settings.spec(_slot(settings.platform))).run(nb))


def _preflight(platform: str) -> str:
    return local_preflight(platform)  # a plain function: Ray cannot ship the cached wrapper


def preflight(platform: str) -> str:
    """Check on a cluster node, with the resources an execution gets, that JAX can use `platform`."""
    ray = _ray()
    return ray.get(ray.remote(**TABLE[platform].ray_request)(_preflight).remote(platform))


class WarmNodeSandbox:
    """A Ray actor holding one reserved core or chip and one started sandbox for its next notebook.

    Each sandbox serves exactly one notebook and is then discarded, so nothing crosses submissions."""

    def __init__(self, settings: RunSettings):
        self.spec = settings.spec(_slot(settings.platform))
        self.ready = Sandbox(self.spec)

    def run(self, nb: NotebookNode, warm_next: bool) -> Execution:
        sandbox, self.ready = Sandbox.warm_or_new(self.ready, self.spec), None
        if warm_next:
            self.ready = Sandbox(self.spec)
        return _on_this_node(sandbox.run(nb))

    def close(self) -> None:
        if self.ready is not None:
            self.ready.discard()
            self.ready = None


def warm_executors(settings: RunSettings, workers: int, runs: int) -> Workers:
    """One warm actor per worker; a sandbox is started ahead only for a notebook still to come.

    Each actor is created with its first notebook: an actor holds its core or chip for good, and
    the instructor's solution, which runs before any submission, needs one."""
    ray = _ray()
    actor = ray.remote(**TABLE[settings.platform].ray_request)(WarmNodeSandbox)
    actors: list = [None] * max(1, min(workers, runs))
    lock, remaining, warm = threading.Lock(), [runs], set(range(len(actors)))

    def executor_for(index):
        def execute(nb: NotebookNode) -> Execution:
            with lock:
                if actors[index] is None:
                    actors[index] = actor.remote(settings)
                remaining[0] -= 1
                warm.discard(index)
                warm_next = remaining[0] > len(warm)
                if warm_next:
                    warm.add(index)
            return ray.get(actors[index].run.remote(nb, warm_next))
        return execute

    def expect(runs_left: int) -> None:
        with lock:
            remaining[0] = runs_left

    def close() -> None:
        started = [handle for handle in actors if handle is not None]
        ray.get([handle.close.remote() for handle in started])
        for handle in started:
            ray.kill(handle)
    return Workers([executor_for(index) for index in range(len(actors))], expect, close)


def executor(settings: RunSettings):
    """A function that runs one notebook as a Ray task and returns its Execution."""
    ray = _ray()
    task = ray.remote(**TABLE[settings.platform].ray_request)(_execute)

    def execute(nb: NotebookNode) -> Execution:
        return ray.get(task.remote(nb, settings))
    return execute


class Ray:
    """Each notebook runs on a Ray node, in the same sandbox as locally."""
    shares_files = False  # nodes do not see this host's compilation cache
    grades = True

    def prepare(self, address: str | None) -> None:
        connect(address)

    def preflight(self, platform: str) -> None:
        preflight(platform)

    def default_workers(self, platform: str) -> int:
        return default_workers(platform)

    def single(self, settings: RunSettings):
        return executor(settings)

    def executors(self, settings: RunSettings, workers: int, runs: int, cache) -> Workers:
        if not settings.warm:
            return Workers([executor(settings)] * workers, lambda runs: None, lambda: None)
        return warm_executors(settings, workers, runs)
