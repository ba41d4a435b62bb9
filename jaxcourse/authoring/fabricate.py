"""Make submissions from a release: the solution filled in, a mutant, or untouched.

Used by `jaxcourse demo` and by the tests that prove every lesson's hidden tests are strong.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

from ..course import Course

MARKER_LINE = re.compile(r"^[ \t]*### (BEGIN|END) SOLUTION[ \t]*\n?", re.M)
HEADER = re.compile(r"^# (replaces|fails):[ \t]*(.+)$", re.M)


@dataclass(frozen=True)
class Mutant:
    lesson: str
    name: str
    replaces: str            # grade_id of the solution cell it rewrites
    fails: tuple[str, ...]   # grade_ids of the test cells that must reject it
    source: str


def read_mutants(course: Course, lesson: str) -> tuple[list[Mutant], dict[str, str]]:
    """The lesson's mutants, and for each file whose header is unusable, why (by mutant name)."""
    found, problems = [], {}
    for path in sorted((course.source / lesson / "mutants").glob("*.py")):
        text = path.read_text()
        header = {key: value.strip() for key, value in HEADER.findall(text)}
        fails = tuple(part.strip() for part in header.get("fails", "").split(",") if part.strip())
        if "replaces" not in header or not fails:
            problems[path.stem] = f"{path}: needs '# replaces: <solution cell>' and '# fails: <test cells>' lines"
            continue
        found.append(Mutant(lesson, path.stem, header["replaces"], fails, text))
    return found, problems


def mutants(course: Course, lesson: str) -> list[Mutant]:
    """The lesson's mutants; a ValueError when one of them has an unusable header."""
    found, problems = read_mutants(course, lesson)
    if problems:
        raise ValueError("; ".join(problems.values()))
    return found


def solution_sources(source_nb: NotebookNode) -> dict[str, str]:
    """Each solution cell's answer as a student would type it: the source without markers."""
    return {cell.metadata.nbgrader["grade_id"]: MARKER_LINE.sub("", cell.source)
            for cell in source_nb.cells if cell.get("metadata", {}).get("nbgrader", {}).get("solution")}


def fill(release_nb: NotebookNode, answers: dict[str, str]) -> NotebookNode:
    """A copy of the release with the given solution cells' sources replaced."""
    nb = copy.deepcopy(release_nb)
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return nb


def solved(course: Course, lesson: str, release_nb: NotebookNode, mutant: Mutant | None = None) -> NotebookNode:
    answers = solution_sources(nbformat.read(course.lesson_notebook(lesson), as_version=4))
    if mutant is not None:
        if mutant.replaces not in answers:
            raise ValueError(f"mutant {mutant.name}: {lesson} has no solution cell {mutant.replaces!r}")
        answers[mutant.replaces] = mutant.source
    return fill(release_nb, answers)


def submit(course: Course, student: str, lesson: str, nb: NotebookNode) -> Path:
    """Place a notebook where nbgrader expects a submission."""
    folder = course.submitted / student / lesson
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{lesson}.ipynb"
    nbformat.write(nb, path)
    return path
