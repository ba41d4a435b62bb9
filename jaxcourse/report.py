"""Report grades: the CSV, per-student HTML feedback, and a terminal table."""
from __future__ import annotations

import copy
import csv
import io
import re
from html import escape
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbformat.notebooknode import NotebookNode
from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbgrader.preprocessors import ClearHiddenTests

from .collect import Submission, collect
from .course import Course
from .record import LedgerEntry, atomic_write, lesson_structure
from .sanitize import UnreadableSubmission, read_submission
from .score import CellResult, Status, inert, inert_output_metadata

BODY = re.compile(r"<body[^>]*>")

CSV_COLUMNS = ["student_id", "notebook", "grade_id", "points", "max_points", "status", "detail", "platform"]


@dataclass
class Summary:
    lesson: str
    csv_path: Path
    rows: list[dict] = field(default_factory=list)
    graded: int = 0          # submissions executed in this run; the rest were unchanged and kept
    seconds: float = 0.0
    workers: int = 0
    error_log: Path | None = None  # tracebacks of submissions the grader could not finish

    @property
    def internal_errors(self) -> int:
        return len({row["student_id"] for row in self.rows if row["status"] == Status.INTERNAL_ERROR})

    def speed(self) -> str:
        students = len({row["student_id"] for row in self.rows})
        line = f"graded {self.graded} of {students} submissions with {self.workers} worker(s) in {self.seconds:.1f}s"
        if self.graded and self.seconds > 0:
            line += f" ({self.graded / self.seconds * 60:.1f} per minute)"
        return line

    @property
    def platform_mismatch(self) -> bool:
        return any(row["status"] == "platform-mismatch" for row in self.rows)

    def totals(self) -> dict[str, tuple[float, float]]:
        totals: dict[str, list[float]] = {}
        for row in self.rows:
            got = totals.setdefault(row["student_id"], [0.0, 0.0])
            got[0] += float(row["points"])
            got[1] += float(row["max_points"])
        return {student: (p, m) for student, (p, m) in totals.items()}

    def table(self) -> str:
        """A student × question table of points, with totals."""
        questions = list(dict.fromkeys(row["grade_id"] for row in self.rows))
        students = list(dict.fromkeys(row["student_id"] for row in self.rows))
        cell = {(r["student_id"], r["grade_id"]): r for r in self.rows}
        width = max([len(s) for s in students] + [7])
        header = f"{'student':<{width}}  " + "  ".join(q for q in questions) + "  total"
        lines = [header]
        for student in students:
            parts = []
            for q in questions:
                row = cell.get((student, q))
                mark = "-" if row is None else f"{float(row['points']):g}" + ("" if row["status"] == "ok" else f" {row['status']}")
                parts.append(f"{mark:<{len(q)}}")
            points, most = self.totals()[student]
            lines.append(f"{student:<{width}}  " + "  ".join(parts) + f"  {points:g}/{most:g}")
        counts = Counter(row["status"] for row in self.rows)
        lines.append("statuses: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
        return "\n".join(lines)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(text: str) -> str:
    """Text a spreadsheet shows as text: no formula (OWASP CSV injection), no control characters."""
    text = inert(text, 400)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_row(student: str, notebook: str, row: CellResult, platform: str) -> dict:
    return {"student_id": spreadsheet_safe(student), "notebook": spreadsheet_safe(notebook),
            "grade_id": spreadsheet_safe(row.grade_id), "points": f"{row.points:g}",
            "max_points": f"{row.max_points:g}", "status": str(row.status),
            "detail": spreadsheet_safe(row.detail), "platform": spreadsheet_safe(platform)}


def write_csv(course: Course, lesson: str, entries: list[LedgerEntry]) -> Summary:
    """Write grades/<lesson>.csv from the ledger entries, atomically, one row per student × cell."""
    path = course.grades / f"{lesson}.csv"
    rows = [row for entry in sorted(entries, key=lambda e: e.student) for row in entry.rows]
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    atomic_write(path, buffer.getvalue())
    return Summary(lesson, path, rows)


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def feedback_notebook(nb: NotebookNode, rows: list[CellResult]) -> NotebookNode:
    """The notebook as submitted, each test cell followed by its verdict, with nothing that runs.

    `nb` is the student's own file: its outputs come from their run, which never saw hidden tests.
    HTML and Markdown are sanitised, scripts and unknown output types dropped, metadata emptied.
    """
    nb = copy.deepcopy(nb)
    nb, _ = ClearHiddenTests(enforce_metadata=False).preprocess(nb, {})
    verdicts = {row.grade_id: row for row in rows}
    for cell in nb.cells:
        cell.pop("attachments", None)
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        row = verdicts.get(grade_id)
        if row is not None and cell.cell_type == "code":
            text = f"[grader] {row.points:g} / {row.max_points:g} points: {row.status}"
            if row.detail:
                text += f"\n{row.detail}"
            cell.outputs = [o for o in cell.outputs if o.get("output_type") != "error"]
            cell.outputs.append(nbformat.v4.new_output("stream", name="stderr", text=text + "\n"))
    nb.metadata = {key: nb.metadata[key] for key in ("kernelspec", "language_info") if key in nb.metadata}
    nb, _ = SanitizeHTML().preprocess(inert_output_metadata(nb), {})
    return nb


def summary_html(lesson: str, notebook: str, rows: list[CellResult]) -> str:
    """The score summary, from the grader's own values only, escaped."""
    points, most = sum(r.points for r in rows), sum(r.max_points for r in rows)
    lines = "".join(f"<tr><td>{escape(r.grade_id)}</td><td>{r.points:g} / {r.max_points:g}</td>"
                    f"<td>{escape(r.status)}</td><td>{escape(r.detail)}</td></tr>" for r in rows)
    return (f'<section id="jaxcourse-summary" style="font-family:sans-serif;margin:1em">'
            f"<h1>{escape(lesson)}: {escape(notebook)}</h1><p><strong>Score: {points:g} / {most:g}</strong></p>"
            f"<table><tr><th>cell</th><th>points</th><th>status</th><th>detail</th></tr>{lines}</table></section>")


def write_lesson_feedback(course: Course, lesson: str) -> tuple[list[Path], list[str]]:
    """Write the feedback pages of every graded submission of `lesson`, as nbgrader's
    generate_feedback does after autograde: rendering HTML is work the grading run skips.

    Returns the pages written and the students skipped, with the reason."""
    notebooks = list(lesson_structure(course, lesson))
    submissions, _ = collect(course, lesson, notebooks)
    written, skipped = [], []
    for submission in submissions:
        try:  # one student's folder or page fails only that student's feedback
            reason = student_feedback(course, submission, notebooks, written)
        except Exception as exc:
            reason = f"feedback failed: {type(exc).__name__}: {inert(exc, 120)}"
        if reason:
            skipped.append(f"{submission.student}: {reason}")
    return written, skipped


def student_feedback(course: Course, submission: Submission, notebooks: list[str], written: list[Path]) -> str | None:
    """Write one graded submission's pages (appended to `written`); or why there are none."""
    entry = LedgerEntry.load(course, submission.lesson, submission.student)
    if entry is None or not entry.cells:
        return "not graded yet"
    if entry.submission_hash != submission.content_hash():
        return "resubmitted since grading; grade again"
    for notebook in notebooks:
        path, submitted = submission.notebooks.get(notebook), None
        if path is not None:
            try:
                submitted, _ = read_submission(path)
            except UnreadableSubmission:
                pass
        rows = [CellResult(**fields) for fields in entry.cells.get(notebook, [])]
        written.append(write_feedback(course, submission.lesson, submission.student, notebook, submitted, rows))
    return None


def write_feedback(course: Course, lesson: str, student: str, notebook: str,
                   submitted: NotebookNode | None, rows: list[CellResult]) -> Path:
    """Write feedback/<student>/<lesson>/<notebook>.html: the score summary on top, then the
    student's own notebook. Never hidden tests, hidden inputs or expected values."""
    target = course.feedback / student / lesson / f"{notebook}.html"
    summary = summary_html(lesson, notebook, rows)
    page = None
    if submitted is not None:
        try:
            exporter = HTMLExporter(template_name="lab", sanitize_html=True)
            body, _ = exporter.from_notebook_node(feedback_notebook(submitted, rows))
            page = BODY.sub(lambda m: m.group(0) + summary, body, count=1)
        except Exception:  # outputs nbconvert cannot render: the summary alone still reaches the student
            summary += "<p>Your notebook's outputs could not be shown on this page.</p>"
    if page is None:
        page = f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{summary}</body></html>"
    atomic_write(target, page)
    return target
