"""Shared fixtures: scratch course folders built from real lessons, graded with the real pipeline."""
from __future__ import annotations

import os
import shutil
import tempfile
import time
import warnings
from pathlib import Path

import nbformat
import pytest
from sqlalchemy.exc import SAWarning

from jaxcourse.authoring import fabricate
from jaxcourse.authoring.release import release
from jaxcourse.course import Course
from jaxcourse.grading.expected import expected_values
from jaxcourse.grading.grade import Options, grade_lesson
from jaxcourse.grading.score import STATUSES
from jaxcourse.run.execute import preflight

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO / "tests" / "fixtures" / "course"
LESSONS = Course.at(REPO).lessons()

warnings.filterwarnings("ignore", category=SAWarning)
pytest_plugins = ("browser_evidence",)  # a failed Chromium test keeps its pages and console log

# The pinned and newest flavours of the clean-venv test run with `make test-portability`. `make test`
# runs every release in a clean venv once, on Colab's package set (tests/test_colab.py): the
# pinned set is the grader's own, under which tests/test_lessons.py grades every lesson.
if "PORTABILITY_FLAVOURS" not in os.environ:
    collect_ignore = ["test_portability.py"]


def make_course(root: Path, origin: Course, lessons: list[str]) -> Course:
    """A scratch course folder holding copies of `lessons`, released."""
    course = Course.at(root)
    for lesson in lessons:
        shutil.copytree(origin.source / lesson, course.source / lesson)
    release(course, lessons)
    return course


def release_nb(course: Course, lesson: str) -> nbformat.NotebookNode:
    return nbformat.read(course.release / lesson / f"{lesson}.ipynb", as_version=4)


def grade(course: Course, lesson: str, **options) -> dict[str, list[dict]]:
    """Grade and return the CSV rows grouped by student."""
    options.setdefault("log", lambda *_: None)
    summary = grade_lesson(course, lesson, Options(**options))
    by_student: dict[str, list[dict]] = {}
    for row in summary.rows:
        assert row["status"] in STATUSES, row  # the CSV contract holds for every row of every test
        by_student.setdefault(row["student_id"], []).append(row)
    return by_student


@pytest.fixture(scope="session")
def tiny(tmp_path_factory) -> Course:
    """A released copy of the two-question fixture lesson, with no submissions yet."""
    return fresh_tiny(tmp_path_factory.mktemp("tiny"))


_TEMPLATE: list[Course] = []
_LESSONS_TEMPLATE: list[Course] = []
_RELEASED: set[str] = set()


def lessons_template(lessons: list[str] | None = None) -> Course:
    """A course holding copies of every lesson and the resources, each lesson released once per
    session when first asked for (all of them by default).

    nbgrader creates a new gradebook in a subprocess (about 3 s), so lesson tests copy this
    course instead of releasing their own.
    """
    if not _LESSONS_TEMPLATE:
        course = Course.at(Path(tempfile.mkdtemp(prefix="jaxcourse-lessons-")) / "course")
        for lesson in LESSONS:
            shutil.copytree(REPO / "source" / lesson, course.source / lesson)
        shutil.copytree(REPO / "resources", course.root / "resources", ignore=shutil.ignore_patterns("__pycache__"))
        _LESSONS_TEMPLATE.append(course)
    course = _LESSONS_TEMPLATE[0]
    todo = [lesson for lesson in lessons or LESSONS if lesson not in _RELEASED]
    if todo:
        release(course, todo)
        _RELEASED.update(todo)
    return course


def lesson_course(root: Path, lesson: str) -> Course:
    """A private copy of the released template holding `lesson` only (its source, release and gradebook)."""
    template = lessons_template([lesson])
    course = Course.at(root / "course")
    course.root.mkdir(parents=True)
    shutil.copytree(template.source / lesson, course.source / lesson)
    shutil.copytree(template.release / lesson, course.release / lesson)
    for name in ("gradebook.db", "nbgrader_config.py"):
        shutil.copy2(template.root / name, course.root / name)
    return course


def tiny_template() -> Course:
    """The tiny course released and trusted once per session: expected values, cache and gradebook."""
    if not _TEMPLATE:
        course = make_course(Path(tempfile.mkdtemp(prefix="jaxcourse-template-")) / "course",
                             Course.at(FIXTURES), ["tiny"])
        expected_values(course, "tiny", Options(log=lambda *_: None), preflight)  # and the compilation cache
        _TEMPLATE.append(course)
    return _TEMPLATE[0]


def fresh_tiny(tmp_path: Path) -> Course:
    """A private copy of the trusted tiny course, with no submissions yet."""
    shutil.copytree(tiny_template().root, tmp_path / "course", symlinks=True)
    return Course.at(tmp_path / "course")


def submit_solution(course: Course, student: str, lesson: str = "tiny", edit=None) -> Path:
    nb = fabricate.solved(course, lesson, release_nb(course, lesson))
    if edit is not None:
        edit(nb)
    return fabricate.submit(course, student, lesson, nb)


def nested_folders(root: Path, depth: int, link_to: str | None = None) -> None:
    """`depth` folders, one inside the next, made without paths longer than PATH_MAX; with
    `link_to`, the innermost holds a link `escape` to it."""
    fd = os.open(root, os.O_RDONLY)
    for _ in range(depth):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    if link_to is not None:
        os.symlink(link_to, "escape", dir_fd=fd)
    os.close(fd)


# Modules that are one long unit of work (a session of kernels in one venv, a whole term): they
# start first, so that no worker is left alone with one of them at the end of the run.
LONG_UNITS = ("test_colab.py", "test_release.py", "test_term.py", "test_fast_grading.py", "test_hostile.py")
SLOW_TEST_S = 30


def unit_rank(item) -> tuple[int, int]:
    """Long modules first, then the lessons from the last of the course to the first (the later
    lessons are the heavier ones: the capstones' fixtures take 100-200 s, welcome-01's 10 s), then
    the rest; the scheduler hands units out in this order."""
    name = item.path.name
    params = getattr(getattr(item, "callspec", None), "params", {})
    if name in LONG_UNITS:
        return LONG_UNITS.index(name), 0
    if name == "test_lessons.py":
        return len(LONG_UNITS), -LESSONS.index(params["graded"]) if "graded" in params else 0
    return len(LONG_UNITS) + 1, 0


def pytest_collection_modifyitems(config, items):
    items.sort(key=unit_rank)   # stable: the order within a module is kept


def pytest_runtest_logreport(report):
    """A slow test is named as it ends, so a log cut short still shows where its time went."""
    if report.duration >= SLOW_TEST_S and report.when in ("setup", "call"):
        print(f"\n[{time.strftime('%H:%M:%S')}] {report.duration:5.0f} s {report.when} {report.nodeid}", flush=True)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under `pytest -n N` (make test), what shares a fixture runs on one worker: each lesson of
    tests/test_lessons.py is a unit of its own, every other module is one unit. Units go out in
    collection order (pytest_collection_modifyitems puts the long ones first), not by test count.

    (xdist's own `--dist loadgroup` marks have no effect with pytest 9.2, which no longer reads
    the `_nodeid` that xdist 3.8 rewrites.)"""
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False

    class ByLessonOrModule(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module, _, test = nodeid.partition("::")
            if module.endswith("test_lessons.py") and "[" in test:
                return f"{module}[{test.split('[', 1)[1]}"
            return module

    return ByLessonOrModule(config, log)
