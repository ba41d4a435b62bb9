"""Record grades where nbgrader expects them: gradebook.db and autograded/, plus a resume ledger;
and keep the gradebook's copy of each lesson's cells current (nbgrader's generate_assignment)."""
from __future__ import annotations

import copy
import hashlib
import json
import re
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import ClearHiddenTests

from ..course import COURSE_ID, Course, CourseError
from ..run.safefs import atomic_write
from .score import CellResult, inert_output_metadata
from .seams import REVIEWED

# What nbgrader's exchange puts beside a submission, and its feedback commands read back.


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


@dataclass(frozen=True)
class Mark:
    """What the gradebook holds for one graded cell of one student."""
    auto: float | None
    manual: float | None          # a hand grade from the formgrader; it counts instead of `auto`
    needs_review: bool            # flagged: the autograder's result changed under a hand grade


@dataclass
class SubmissionMarks:
    """One student's submission of a lesson, as the gradebook holds it."""
    cells: dict[tuple[str, str], Mark] = field(default_factory=dict)   # (notebook, grade_id) -> mark
    penalty: dict[str, float] = field(default_factory=dict)            # notebook -> late penalty
    seconds_late: float = 0.0


def gradebook_marks(course: Course, lesson: str) -> dict[str, SubmissionMarks]:
    """Every submission of `lesson` in the gradebook, by student: hand grades and late penalties
    set through nbgrader (the formgrader, its API) as well as the autograder's scores."""
    if not course.gradebook.is_file():
        return {}
    marks = {}
    with Gradebook(course.db_url, COURSE_ID) as gb:
        try:
            assignment = gb.find_assignment(lesson)
        except MissingEntry:
            return {}
        for submission in assignment.submissions:
            got = marks[submission.student.id] = SubmissionMarks(seconds_late=float(submission.total_seconds_late))
            for notebook in submission.notebooks:
                got.penalty[notebook.name] = float(notebook.late_submission_penalty or 0.0)
                for grade in notebook.grades:
                    got.cells[(notebook.name, grade.name)] = Mark(
                        None if grade.auto_score is None else float(grade.auto_score),
                        None if grade.manual_score is None else float(grade.manual_score),
                        bool(grade.needs_manual_grade))
    return marks


def record_grades(course: Course, lesson: str, student: str, results: dict[str, list[CellResult]],
                  timestamp: datetime | None) -> None:
    """Write one student's scores into the gradebook, in one transaction after nbgrader's own for
    the student and submission rows.

    `timestamp`: the submission's time (collect.Submission.submitted_at), or None.
    A hand grade (`manual_score`, from the formgrader) is kept; when the autograder's score
    under it changes, the cell is flagged for review, as nbgrader's own autograde does."""
    with Gradebook(course.db_url, COURSE_ID) as gb:
        gb.update_or_create_student(student)
        kwargs = {"timestamp": timestamp} if timestamp else {}
        gb.update_or_create_submission(lesson, student, **kwargs)
        for notebook, rows in results.items():
            for row in rows:
                grade = gb.find_grade(row.grade_id, notebook, lesson, student)
                changed = grade.auto_score is None or float(grade.auto_score) != row.points
                grade.auto_score = row.points
                if grade.manual_score is None:
                    grade.needs_manual_grade = False
                elif changed:
                    grade.needs_manual_grade = True
        gb.db.commit()


def verdict(row: CellResult) -> str:
    text = f"[grader] {row.points:g} / {row.max_points:g} points: {row.status}"
    return f"{text}\n{row.detail}" if row.detail else text


def with_verdicts(nb: NotebookNode, verdicts: dict[str, str]) -> NotebookNode:
    """A copy of `nb` without hidden tests, each test cell's error outputs replaced by its verdict."""
    return add_verdicts(copy.deepcopy(nb), verdicts)


def add_verdicts(nb: NotebookNode, verdicts: dict[str, str]) -> NotebookNode:
    """`nb` itself, its hidden tests removed and each test cell's error outputs replaced by its verdict."""
    nb, _ = ClearHiddenTests(enforce_metadata=False).preprocess(nb, {})
    for cell in nb.cells:
        text = verdicts.get(cell.get("metadata", {}).get("nbgrader", {}).get("grade_id"))
        if text is not None and cell.cell_type == "code":
            cell.outputs = [o for o in cell.outputs if o.get("output_type") != "error"]
            cell.outputs.append(nbformat.v4.new_output("stream", name="stderr", text=text + "\n"))
    return nb


def reviewed_notebook(restored: NotebookNode, own: NotebookNode, rows: list[CellResult]) -> NotebookNode:
    """What autograded/ holds for the formgrader and nbgrader's generate_feedback: the lesson's
    cells as the grader restored them, the outputs of the student's own run, and each test
    cell's verdict. The graded run saw hidden tests and their inputs (a later cell can print
    them), so its outputs stay in the grader's state folder (`executed_path`)."""
    outputs = {cell.get("id"): cell.get("outputs", []) for cell in own.cells if cell.cell_type == "code"}
    nb = copy.deepcopy(restored)   # one copy: a notebook can hold 10^5 cells
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = copy.deepcopy(outputs.get(cell.get("id"), [])), None
    nb = inert_output_metadata(add_verdicts(nb, {row.grade_id: verdict(row) for row in rows}))
    nb.metadata["jaxcourse"] = {**restored.metadata.get("jaxcourse", {}), "hidden_tests": REVIEWED}
    return nb


def executed_path(course: Course, lesson: str, student: str, notebook: str) -> Path:
    """The graded run itself, for the instructor: never mounted into a sandbox, never sent."""
    return course.state / "executed" / lesson / student / f"{notebook}.ipynb"


def write_autograded(course: Course, lesson: str, student: str, notebook: str, reviewed: NotebookNode | None,
                     executed: NotebookNode | None, exchange: dict[str, str]) -> None:
    """autograded/<student>/<lesson>/: the reviewed notebook and nbgrader's exchange files as collect
    read them (generate_feedback and release_feedback read them); the graded run goes to `executed_path`."""
    target_dir = course.autograded / student / lesson
    target_dir.mkdir(parents=True, exist_ok=True)
    for name, text in exchange.items():
        atomic_write(target_dir / name, text)
    # nbformat.v4's writer: what nbformat.writes writes, without validating again a notebook built
    # from a validated one (its only effect would be a log line; seconds for 10^5 cells).
    if reviewed is not None:
        atomic_write(target_dir / f"{notebook}.ipynb", nbformat.v4.writes_json(reviewed))
    if executed is not None:
        atomic_write(executed_path(course, lesson, student, notebook), nbformat.v4.writes_json(executed))


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


# ---------------------------------------------------------------- the lesson's cells, from nbgrader

def nbgrader_api(course: Course, release_dir: Path | None = None) -> NbGraderAPI:
    config = course.nbgrader_config()
    if release_dir is not None:
        config.CourseDirectory.release_directory = str(release_dir)
    coursedir = CourseDirectory(config=config)
    return NbGraderAPI(coursedir=coursedir, config=config)


# nbgrader logs the traceback of what failed, then raises a generic "see the above traceback".
RAISED = re.compile(r"^[ \t]*(?:[\w.]+\.)?(\w+(?:Error|Exception)): (.+)$", re.M)
STRUCTURE_LOCKED = "Cannot add or remove cells"


def failure_reason(lesson: str, result: dict) -> str:
    """The reason nbgrader gave for a failed generate_assignment, and what to do about it."""
    text = "\n".join(filter(None, (result.get("log"), result.get("error"))))
    raised = [(kind, message) for kind, message in RAISED.findall(text) if kind != "NbGraderException"]
    reason = ": ".join(raised[-1]) if raised else (text.strip().splitlines() or ["no reason given"])[-1]
    if STRUCTURE_LOCKED in reason:
        reason += (f"\n  The gradebook holds submissions of {lesson}, and nbgrader then keeps its cells fixed: "
                   "no solution or test cell may be added, removed or renamed. To fix a test, change only what "
                   "is inside its cell (a hidden test, its points). To change the cells anyway (\"Changing a "
                   f"lesson mid-term\" in docs/authoring.md): back up gradebook.db, run `nbgrader db assignment "
                   f"remove {lesson} --force` (it deletes the lesson's grades, hand grades too), then `jaxcourse "
                   f"release {lesson}` and `jaxcourse grade {lesson}`.")
    return reason


def generate(course: Course, lesson: str, release_dir: Path | None = None) -> None:
    """Run nbgrader's generate_assignment for one lesson (this also fills the gradebook)."""
    course.lesson_notebook(lesson)
    result = nbgrader_api(course, release_dir).generate_assignment(lesson, force=True, create=True)
    if not result["success"]:
        raise CourseError(f"nbgrader generate_assignment failed for {lesson}: {failure_reason(lesson, result)}")


def sync_gradebook(course: Course, lesson: str) -> None:
    """Make the gradebook hold the lesson's current cells, without touching release/.

    Skipped when this gradebook file was already synced with this exact source notebook.
    """
    stamp = course.state / "synced" / lesson
    digest = hashlib.sha256(course.lesson_notebook(lesson).read_bytes()).hexdigest()
    key = f"{digest} {course.gradebook.stat().st_ino if course.gradebook.is_file() else 0}"
    if stamp.is_file() and stamp.read_text() == key:
        return
    with tempfile.TemporaryDirectory(prefix="jaxcourse-sync-") as scratch:
        generate(course, lesson, Path(scratch))
    stamp.parent.mkdir(parents=True, exist_ok=True)
    stamp.write_text(f"{digest} {course.gradebook.stat().st_ino}")
