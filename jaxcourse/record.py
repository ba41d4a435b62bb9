"""Record grades where nbgrader expects them: gradebook.db and autograded/, plus a resume ledger."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.utils import parse_utc

from .course import COURSE_ID, Course, CourseError
from .safefs import atomic_write
from .score import CellResult


@dataclass(frozen=True)
class TestCell:
    grade_id: str
    max_points: float


def lesson_structure(course: Course, lesson: str) -> dict[str, list[TestCell]]:
    """Each notebook of a lesson with its autograded test cells, from the gradebook."""
    try:
        with Gradebook(course.db_url, COURSE_ID) as gb:
            assignment = gb.find_assignment(lesson)
            structure = {}
            for notebook in sorted(assignment.notebooks, key=lambda n: n.name):
                solutions = {cell.name for cell in notebook.solution_cells}
                structure[notebook.name] = [
                    TestCell(cell.name, float(cell.max_score))
                    for cell in notebook.grade_cells if cell.name not in solutions
                ]
            return structure
    except MissingEntry:
        raise CourseError(f"lesson {lesson!r} is not in the gradebook") from None
    except Exception as exc:
        raise CourseError(f"cannot read the gradebook {course.gradebook}: {exc}") from None


def record_grades(course: Course, lesson: str, student: str, results: dict[str, list[CellResult]],
                  timestamp_text: str | None) -> None:
    """Write one student's scores into the gradebook in a single transaction.

    `timestamp_text`: nbgrader's timestamp.txt as collect read it (within its size cap), or None."""
    timestamp = None
    if timestamp_text is not None:
        try:
            timestamp = parse_utc(timestamp_text.strip())
        except (ValueError, OverflowError):
            timestamp = None
    with Gradebook(course.db_url, COURSE_ID) as gb:
        gb.update_or_create_student(student)
        kwargs = {"timestamp": timestamp} if timestamp else {}
        gb.update_or_create_submission(lesson, student, **kwargs)
        for notebook, rows in results.items():
            for row in rows:
                grade = gb.find_grade(row.grade_id, notebook, lesson, student)
                grade.auto_score = row.points
                grade.manual_score = None
                grade.needs_manual_grade = False
        gb.db.commit()


def write_autograded(course: Course, lesson: str, student: str, notebook: str,
                     nb: nbformat.NotebookNode | None, timestamp_text: str | None) -> None:
    target_dir = course.autograded / student / lesson
    target_dir.mkdir(parents=True, exist_ok=True)
    if timestamp_text is not None:
        atomic_write(target_dir / "timestamp.txt", timestamp_text)
    if nb is not None:
        atomic_write(target_dir / f"{notebook}.ipynb", nbformat.writes(nb))


@dataclass
class LedgerEntry:
    """What was graded for one student, so a rerun can skip unchanged work and rebuild the CSV."""
    student: str
    submission_hash: str
    expected_hash: str
    platform: str
    rows: list[dict]                                            # the CSV's, spreadsheet-safe
    cells: dict[str, list[dict]] = field(default_factory=dict)  # notebook -> CellResult fields, for feedback

    @classmethod
    def path(cls, course: Course, lesson: str, student: str) -> Path:
        return course.state / "ledger" / lesson / f"{student}.json"

    def save(self, course: Course, lesson: str) -> None:
        atomic_write(self.path(course, lesson, self.student), json.dumps(asdict(self), indent=1))

    @classmethod
    def load(cls, course: Course, lesson: str, student: str) -> "LedgerEntry | None":
        try:
            return cls(**json.loads(cls.path(course, lesson, student).read_text()))
        except (OSError, ValueError, TypeError):
            return None
