"""The expected-values store: a trusted run of the instructor's solution, its exports kept
under .jaxcourse/expected/<lesson>/<platform>.json and keyed by `trusted.source_hash`, and the
lesson's compilation cache that the same visible code fills.

Grading and the mutation check both read and write it; nothing here imports nbgrader, so the
mutation check runs where only the run layer is installed.
"""
from __future__ import annotations

import copy
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import nbformat
from nbformat.notebooknode import NotebookNode

from ..course import Course, CourseError
from ..run import safefs
from ..run.backends import BACKENDS
from ..run.bubblewrap import CompilationCache
from ..run.execute import Sandbox
from ..run.platforms import TABLE
from ..run.safefs import atomic_write
from .options import Options
from .trusted import judge_solution, run, source_hash


def expected_path(course: Course, lesson: str, platform: str) -> Path:
    return course.state / "expected" / lesson / f"{platform}.json"


def uses_cache(options: Options) -> bool:
    """The cache needs a backend whose workers see this host's files. The sandbox mounts it
    read-only; a run without one (trusted notebooks only) reads it in place, and a write threshold
    it never reaches keeps JAX from writing there."""
    return options.compilation_cache and BACKENDS[options.backend].shares_files


def cache_path(course: Course, lesson: str, platform: str) -> Path:
    """The lesson's compilation cache, filled by the instructor's solution, read by submissions."""
    return course.state / "jax-cache" / lesson / platform


def visible_cells(nb: NotebookNode) -> NotebookNode:
    """The lesson as a student sees it before answering: no solution and no test cells."""
    nb = copy.deepcopy(nb)
    nb.cells = [cell for cell in nb.cells if not (cell.get("metadata", {}).get("nbgrader", {}).get("solution")
                                                 or cell.get("metadata", {}).get("nbgrader", {}).get("grade"))]
    return nb


def fill_cache(course: Course, lesson: str, options: Options) -> None:
    """Compile the lesson's visible code into its cache, so no submission can read the
    instructor's programs (solutions and hidden tests never run against this cache)."""
    cache = CompilationCache(cache_path(course, lesson, options.platform), writable=True)
    for folder in (cache.path, cache.fonts):
        folder.mkdir(parents=True, exist_ok=True)
        for entry in folder.iterdir():  # emptied in place: sandboxes started ahead have it mounted
            safefs.remove_tree(entry)
    Sandbox(options.run_settings(course, lesson).spec(0, cache)).run(visible_cells(nbformat.read(course.lesson_notebook(lesson), as_version=4)))


def trusted_run(course: Course, lesson: str, options: Options) -> dict:
    """Run the instructor's solution and keep each test cell's exports as the expected values."""
    nb = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    execute = BACKENDS[options.backend].single(options.run_settings(course, lesson))
    execution, merged, receipt, problem = run(nb, execute)
    return judge_solution(course, lesson, options.platform, execution, merged, receipt, problem)


def keep_expected(course: Course, lesson: str, options: Options, values: dict, filled: bool = False) -> dict:
    """Store a trusted run's expected values (and fill the lesson's compilation cache, unless `filled`)."""
    values = {key: value for key, value in values.items() if key != "notebook"}
    if uses_cache(options) and not filled:
        fill_cache(course, lesson, options)
    atomic_write(expected_path(course, lesson, options.platform), json.dumps(values))
    return values


def current_expected(course: Course, lesson: str, options: Options) -> dict | None:
    """The stored expected values, if they were made from the lesson's present source."""
    try:
        cached = json.loads(expected_path(course, lesson, options.platform).read_text())
    except (OSError, ValueError):
        return None
    fresh = cached.get("source_hash") == source_hash(course, lesson)
    cached_ok = cache_path(course, lesson, options.platform).is_dir() or not uses_cache(options)
    return cached if fresh and cached_ok else None


def expected_values(course: Course, lesson: str, options: Options, preflight: Callable[[str], object],
                    submissions_may_run: threading.Event | None = None) -> dict:
    """Run the instructor's solution and keep its exports (and fill the lesson's cache).

    The run's receipt proves that JAX started the platform. When the solution fails, `preflight`
    first rules out the likelier cause, a platform JAX cannot start here.
    `submissions_may_run` is set as soon as submissions can run beside what is left: on CPU once
    the cache is filled (they need no expected values, only their scoring does); on a platform
    whose devices take one process at a time, when both runs are over.
    """
    may_run = submissions_may_run or threading.Event()
    shares_devices = not TABLE[options.platform].exclusive
    # On CPU the two runs share no device, so the cache fills while the solution runs.
    side_by_side = uses_cache(options) and shares_devices
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            filling = pool.submit(fill_cache, course, lesson, options) if side_by_side else None
            if filling:
                filling.add_done_callback(lambda _: may_run.set())
            elif shares_devices and not uses_cache(options):
                may_run.set()
            try:
                values = trusted_run(course, lesson, options)
            except CourseError:
                preflight(options.platform)
                raise
            if filling:
                filling.result()
        return keep_expected(course, lesson, options, values, filled=side_by_side)
    finally:
        may_run.set()
