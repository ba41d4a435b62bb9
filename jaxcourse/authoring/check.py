"""`jaxcourse check-lesson`: everything one lesson must pass, for that lesson alone.

metadata and a "Run the example" program → a clean source notebook (no outputs, execution
counts or missing ids) → hidden tests that only export (no `assert`) → every graded cell has a
mutant → the solution passes its own tests (sandboxed) → the solutions run as a plain script →
the release leaks nothing and the committed artefacts match a fresh regeneration → each mutant
is rejected (reported one by one) → the release runs in a clean pip-only venv at the pins (when
the course folder has the test suite; `--quick` skips it).
"""
from __future__ import annotations

import ast
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
from ..course import Course, CourseError
from ..grading.expected import trusted_run
from ..grading.options import Options
from ..grading.trusted import script_env
from .artefacts import example_problems, example_source, solution_notebook, solution_script
from .lessonfile import HIDDEN_REGION
from .mutation import check_mutants, is_test_cell, usable_mutants
from .release import release


@dataclass
class Step:
    name: str
    ok: bool
    detail: str = ""
    skipped: bool = False


class Skipped(Exception):
    """A check that does not apply here; the message says why."""


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


def source_problems(nb: nbformat.NotebookNode) -> list[str]:
    """What a source notebook holds that it must not: outputs, execution counts, missing or repeated ids."""
    problems, seen = [], set()
    for index, cell in enumerate(nb.cells):
        name = cell.get("id") or f"#{index}"
        if not cell.get("id") or cell.id in seen:
            problems.append(f"cell {name}: a missing or repeated cell id")
        seen.add(cell.get("id"))
        stored = [what for what, there in (("outputs", cell.get("outputs")),
                                           ("an execution count", cell.get("execution_count") is not None)) if there]
        if stored:
            problems.append(f"cell {name}: stored {' and '.join(stored)}")
    return problems


def hidden_asserts(nb: nbformat.NotebookNode) -> list[str]:
    """Each `assert` inside a hidden-test region: it would need the expected value in the student's kernel."""
    problems = []
    for cell in nb.cells:
        if cell.cell_type != "code" or not HIDDEN_REGION.search(cell.source):
            continue
        hidden = {cell.source.count("\n", 0, match.start(1)) + k
                  for match in HIDDEN_REGION.finditer(cell.source) for k in range(1, match.group(1).count("\n") + 2)}
        try:
            tree = ast.parse(cell.source)
        except SyntaxError as exc:
            problems.append(f"cell {cell.get('id')}: not plain Python ({exc.msg}, line {exc.lineno})")
            continue
        problems += [f"cell {cell.get('id')}, line {node.lineno}: `assert` in the hidden tests"
                     for node in ast.walk(tree) if isinstance(node, ast.Assert) and node.lineno in hidden]
    return problems


def _source_clean(course: Course, lesson: str, options: Options) -> str:
    # As the file holds it: nbformat.read would quietly renumber a repeated id.
    problems = source_problems(nbformat.from_dict(json.loads(course.lesson_notebook(lesson).read_text())))
    if problems:
        raise CourseError("; ".join(problems) + f". Run `jaxcourse clean-source {lesson}`: figure and example "
                          "outputs live in recorded-outputs.json (`jaxcourse record-figures`)")
    return "no outputs or execution counts; every cell has its own id"


def _hidden_tests_export(course: Course, lesson: str, options: Options) -> str:
    problems = hidden_asserts(nbformat.read(course.lesson_notebook(lesson), as_version=4))
    if problems:
        raise CourseError("; ".join(problems) + ". Hidden tests only export values (grader_check, grader_raises): "
                          "an assert needs the expected value inside the student's kernel (docs/authoring.md)")
    return "no assert between ### BEGIN HIDDEN TESTS and ### END HIDDEN TESTS"


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
    found, _ = fabricate.read_mutants(course, lesson)  # an unreadable one is reported on its own line
    source = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    tests = {c.metadata.nbgrader.grade_id for c in source.cells if is_test_cell(c)}
    uncovered = sorted(tests - {g for m in found for g in m.fails})
    if uncovered:
        raise CourseError(f"no mutant fails {', '.join(uncovered)}")
    return f"{len(found)} mutants cover {len(tests)} graded cells"


def _mutants_rejected(course: Course, lesson: str, options: Options) -> list[Step]:
    """One step per mutant: a bad header fails only its own mutant, the rest still run."""
    found, problems = fabricate.read_mutants(course, lesson)
    usable, misfits = usable_mutants(nbformat.read(course.lesson_notebook(lesson), as_version=4), found)
    problems.update(misfits)
    verdicts = check_mutants(course, lesson, options, usable) if usable else []
    steps = [Step(f"mutant {name}", False, problem) for name, problem in problems.items()]
    for verdict in verdicts:
        name = verdict.mutant.name
        failed = [p.removeprefix(f"{name}: ") for p in verdict.problems()]
        steps.append(Step(f"mutant {name}", not failed,
                          "; ".join(failed) or f"rejected by {', '.join(verdict.mutant.fails)}"))
    if not steps:
        raise CourseError("the lesson has no mutants")
    return sorted(steps, key=lambda step: step.name)


def _portable(course: Course, lesson: str, options: Options) -> str:
    suite = course.root / "tests" / "test_portability.py"
    if not suite.is_file():
        raise Skipped("this course folder has no tests/test_portability.py")
    done = subprocess.run([sys.executable, "-m", "pytest", str(suite), "-q", "-k", lesson, "-p", "no:cacheprovider"],
                          cwd=course.root, capture_output=True, text=True,
                          env={**os.environ, "PORTABILITY_FLAVOURS": "pinned"})
    if done.returncode != 0:
        raise CourseError(done.stdout[-1500:])
    return done.stdout.strip().splitlines()[-1]


CHECKS: list[tuple[str, Callable[[Course, str, Options], str | list[Step]]]] = [
    ("metadata", _metadata),
    ("source notebook clean", _source_clean),
    ("hidden tests only export", _hidden_tests_export),
    ("mutants cover every graded cell", _mutants_cover),
    ("solution passes", _solution_passes),
    ("solution runs as a script", _solution_runs_as_script),
    ("release", _released),
    ("mutants rejected", _mutants_rejected),
    ("portable at the pins", _portable),
]
# What `--quick` leaves out while you iterate on hidden tests: building a clean venv at the pins.
SLOW = {"portable at the pins"}


def check_lesson(course: Course, lesson: str, options: Options, report: Callable[[Step], None],
                 quick: bool = False) -> bool:
    """Run every check (all but the slow ones when `quick`), reporting each as it ends; True when all pass."""
    passed = True
    for name, check in CHECKS:
        if quick and name in SLOW:
            steps = [Step(name, True, "skipped (--quick)", skipped=True)]
        else:
            try:
                result = check(course, lesson, options)
                steps = result if isinstance(result, list) else [Step(name, True, result)]
            except Skipped as exc:
                steps = [Step(name, True, str(exc), skipped=True)]
            except (CourseError, ValueError) as exc:
                steps = [Step(name, False, str(exc))]
        for step in steps:
            passed &= step.ok
            report(step)
    return passed
