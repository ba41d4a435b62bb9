"""`jaxcourse check-lesson`: everything one lesson must pass, for that lesson alone.

metadata and a "Run the example" program → the solution passes its own tests (sandboxed) →
the solutions run as a plain script → the release leaks nothing and the committed artefacts
match a fresh regeneration → every graded cell has a mutant → every mutant is rejected → the
release runs in a clean pip-only venv at the pins (when the course folder has the test suite).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import nbformat

from . import fabricate
from .artefacts import example_problems, example_source, solution_notebook, solution_script
from .course import Course, CourseError
from .grade import Options, trusted_run
from .mutation import check_mutants, is_test_cell
from .release import release
from .trusted import script_env


@dataclass
class Step:
    name: str
    ok: bool
    detail: str = ""


def _normalized(path: Path) -> object:
    if path.suffix == ".ipynb":
        return json.loads(json.dumps(nbformat.read(path, as_version=4), sort_keys=True))
    return path.read_bytes()


def drift(course: Course, lesson: str) -> list[str]:
    """Generated files of `lesson` that differ from what its source produces now."""
    with tempfile.TemporaryDirectory(prefix="jaxcourse-check-") as scratch:
        fresh = Course.at(scratch)
        shutil.copytree(course.source / lesson, fresh.source / lesson)
        release(fresh, [lesson])
        differ = []
        for relative in (Path("release") / lesson / f"{lesson}.ipynb", Path("exercises") / f"{lesson}.py",
                         Path("exercises") / f"{lesson}.ipynb"):
            ours = course.root / relative
            if not ours.is_file() or _normalized(ours) != _normalized(fresh.root / relative):
                differ.append(str(relative))
        return differ


def _metadata(course: Course, lesson: str, options: Options) -> str:
    chapter = course.info(lesson).chapter
    source = example_source(course, lesson)
    if source is None:
        raise CourseError("no \"Run the example\" cell (a code cell tagged `example`)")
    problems = example_problems(source, lesson)
    if problems:
        raise CourseError("; ".join(problems))
    return f"chapter {chapter}; the example program ends PASS: {lesson}"


def _solution_runs_as_script(course: Course, lesson: str, options: Options) -> str:
    """Every solution, run as one plain Python script, unsandboxed (the instructor's own code)."""
    with tempfile.TemporaryDirectory(prefix="jaxcourse-script-") as scratch:
        script = Path(scratch) / f"{lesson}.py"
        script.write_text(solution_script(solution_notebook(course, lesson), lesson))
        env = script_env(course, lesson, options.platform)
        done = subprocess.run([sys.executable, str(script)], cwd=scratch, env=env, capture_output=True, text=True,
                              timeout=options.limits.notebook_timeout)
    lines = done.stdout.rstrip().splitlines()
    if done.returncode != 0 or not lines or lines[-1] != f"PASS: {lesson}":
        raise CourseError(f"the solution script failed ({done.returncode}):\n{done.stderr[-1500:]}")
    return f"prints PASS: {lesson}"


def _solution_passes(course: Course, lesson: str, options: Options) -> str:
    return f"{len(trusted_run(course, lesson, options)['checks'])} graded cells pass"


def _released(course: Course, lesson: str, options: Options) -> str:
    differ = drift(course, lesson)  # release() itself refuses a release that leaks
    if differ:
        raise CourseError(f"{', '.join(differ)} differ from the source: run `jaxcourse release {lesson}`")
    return "no solution or hidden test released; release/ and exercises/ match the source"


def _mutants_cover(course: Course, lesson: str, options: Options) -> str:
    found = fabricate.mutants(course, lesson)
    source = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    tests = {c.metadata.nbgrader.grade_id for c in source.cells if is_test_cell(c)}
    uncovered = sorted(tests - {g for m in found for g in m.fails})
    if uncovered:
        raise CourseError(f"no mutant fails {', '.join(uncovered)}")
    return f"{len(found)} mutants cover {len(tests)} graded cells"


def _mutants_rejected(course: Course, lesson: str, options: Options) -> str:
    verdicts = check_mutants(course, lesson, options)
    problems = [p for verdict in verdicts for p in verdict.problems()]
    if problems:
        raise CourseError("\n    ".join(problems))
    return f"{len(verdicts)} mutants rejected by the hidden tests"


def _portable(course: Course, lesson: str, options: Options) -> str:
    suite = course.root / "tests" / "test_portability.py"
    if not suite.is_file():
        return "skipped: this course folder has no tests/test_portability.py"
    done = subprocess.run([sys.executable, "-m", "pytest", str(suite), "-q", "-k", lesson, "-p", "no:cacheprovider"],
                          cwd=course.root, capture_output=True, text=True,
                          env={**os.environ, "PORTABILITY_FLAVOURS": "pinned"})
    if done.returncode != 0:
        raise CourseError(done.stdout[-1500:])
    return done.stdout.strip().splitlines()[-1]


CHECKS: list[tuple[str, Callable[[Course, str, Options], str]]] = [
    ("metadata", _metadata),
    ("solution passes", _solution_passes),
    ("solution runs as a script", _solution_runs_as_script),
    ("release", _released),
    ("mutants cover every graded cell", _mutants_cover),
    ("mutants rejected", _mutants_rejected),
    ("portable at the pins", _portable),
]


def check_lesson(course: Course, lesson: str, options: Options, report: Callable[[Step], None]) -> bool:
    """Run every check, reporting each as it ends; True when all pass."""
    passed = True
    for name, check in CHECKS:
        try:
            step = Step(name, True, check(course, lesson, options))
        except (CourseError, ValueError) as exc:
            step = Step(name, False, str(exc))
        passed &= step.ok
        report(step)
    return passed
