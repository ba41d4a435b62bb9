"""The start of a lesson's grading: the checks that refuse a run before anything starts, then
the lesson's expected values on their way in a thread of their own (the stored ones, or the
instructor's solution run and the cache fill), and the workers' pool, whose first sandboxes
boot at once where cores are free.

Nothing here imports nbgrader. `jaxcourse grade` begins here and imports the rest of the grader
(nbgrader, about a second, several on a slow filesystem) while those sandboxes boot; the
gradebook's sync and the reading of the submissions overlap them too.
"""
from __future__ import annotations

import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor

from ..course import Course, CourseError
from ..run.backends import BACKENDS, Backend
from ..run.bubblewrap import CompilationCache, assert_hidden, require_sandbox
from ..run.platforms import TABLE
from ..run.supervise import Workers
from .expected import cache_path, current_expected, expected_values, uses_cache
from .options import Options


def refuse_without_submissions(course: Course, lesson: str, options: Options) -> int:
    """Raise when there is nothing to grade (before the lesson enters the gradebook: `nbgrader
    export` would show every student 0 for it), or a student named with --student submitted nothing;
    else return how many students this run may grade."""
    folders = course.submission_folders(lesson)[0]
    if not folders:
        raise CourseError(f"no submissions of {lesson}: no folder {course.submitted}/<student>/{lesson}/ "
                          "(nbgrader collect puts them there). Nothing was graded and the gradebook is unchanged.")
    missing = sorted(set(options.students) - {folder.parent.name for folder in folders})
    if missing:
        raise CourseError(f"no submission of {lesson} from {', '.join(missing)} under "
                          f"submitted/<student>/{lesson}/. Nothing was graded.")
    return len(options.students) if options.students else len(folders)


class GradingStart:
    """A lesson's grading, begun: the checks passed, the backend prepared, the lesson's cache
    folder made (the submissions' sandboxes mount it), `expected` on its way, and the workers'
    `pool` started (one notebook a student, until the grading counts what is left to run:
    `pool.expect`).

    `may_run` is set once submissions may run beside what is left of it (expected_values says
    when). Use it as a context manager around the rest of grading: leaving lets the trusted runs
    end, so that none is left behind when grading stopped early (their values are then kept
    for the next run when they finished).
    """

    def __init__(self, course: Course, lesson: str, options: Options):
        self.began = time.monotonic()
        course.info(lesson).refuse(options.platform)
        if options.sandbox:
            require_sandbox()
            assert_hidden(course.root)
        self.backend: Backend = BACKENDS[options.backend]
        self.backend.prepare(options.ray_address)
        students = refuse_without_submissions(course, lesson, options)
        current = current_expected(course, lesson, options)  # before the cache folder is made below
        self.cache = None
        if uses_cache(options):
            self.cache = CompilationCache(cache_path(course, lesson, options.platform))
            self.cache.path.mkdir(parents=True, exist_ok=True)
        self.may_run = threading.Event()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="expected-values")
        self.expected: Future[dict] = self._thread.submit(self._make, course, lesson, options, current)
        # Its sandboxes boot beside the instructor's runs: they import no jax and open no device
        # before their notebook arrives, and the cache they mount is filled before it does.
        self.workers = max(1, options.workers or self.backend.default_workers(options.platform))
        try:
            self.pool: Workers = self.backend.executors(options.run_settings(course, lesson), self.workers,
                                                        students, self.cache)
        except BaseException:
            self._thread.shutdown(wait=True)
            raise

    def _make(self, course: Course, lesson: str, options: Options, current: dict | None) -> dict:
        try:
            if current:  # stored values prove nothing about this machine; a fresh run's receipt does
                if not TABLE[options.platform].exclusive:
                    self.may_run.set()  # as beside a solution run: if the check fails, nothing is recorded
                self.backend.preflight(options.platform)
                return current
            return expected_values(course, lesson, options, self.backend.preflight, self.may_run)
        finally:
            self.may_run.set()

    def failed(self) -> bool:
        """The expected values could not be made: nothing may be recorded."""
        return self.expected.done() and self.expected.exception() is not None

    def __enter__(self) -> GradingStart:
        return self

    def __exit__(self, *exc_info) -> None:
        self.pool.close()  # the sandboxes started ahead for notebooks that never came
        self._thread.shutdown(wait=True)
