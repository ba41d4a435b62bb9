"""Report grades: the CSV, per-student HTML feedback, and a terminal table."""
from __future__ import annotations

import csv
import io
import secrets
from datetime import datetime, timezone
from html import escape
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

from . import htmlpage
from ..course import Course, lesson_title
from .collect import Submission, collect
from .exchange import EXCHANGE_FILES
from .record import (LedgerEntry, Mark, SubmissionMarks, atomic_write, gradebook_marks, lesson_structure, verdict,
                     with_verdicts)
from .sanitize import UnreadableSubmission, read_submission
from .score import CellResult, Status, inert, inert_output_metadata

# `points` counts: a hand grade from the formgrader where there is one, else the autograder's.
# `late_penalty` is the notebook's, on its first row only, so a student's total is
# sum(points) - sum(late_penalty).
CSV_COLUMNS = ["student_id", "notebook", "grade_id", "points", "max_points", "status", "detail", "platform",
               "auto_points", "manual_points", "needs_review", "late_penalty"]
LEDGER_COLUMNS = CSV_COLUMNS[:8]   # what the autograder decides; the rest comes from the gradebook


@dataclass
class ScoreChange:
    """One student's grade before and after a regrade (a fixed hidden test, a new platform)."""
    student: str
    before: float
    after: float
    most: float
    cells: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"{self.student}: {self.before:g}/{self.most:g} -> {self.after:g}/{self.most:g}" + (
            f" ({'; '.join(self.cells)})" if self.cells else "")


def counted_total(marks: SubmissionMarks) -> float:
    """What the student's submission counts for: hand grades over the autograder's, less late penalties."""
    points = sum(m.manual if m.manual is not None else (m.auto or 0.0) for m in marks.cells.values())
    return points - sum(marks.penalty.values())


def score_changes(before: dict[str, SubmissionMarks], after: dict[str, SubmissionMarks], students: list[str],
                  most: float) -> list[ScoreChange]:
    """For each regraded student who had autograder scores before: what changed, cell by cell."""
    changes = []
    for student in students:
        old, new = before.get(student), after.get(student)
        if old is None or new is None or all(m.auto is None for m in old.cells.values()):
            continue
        cells = []
        for key, mark in new.cells.items():
            was = old.cells.get(key, Mark(None, None, False))
            if was.auto != mark.auto:
                cells.append(f"{key[1]} {was.auto or 0:g} -> {mark.auto or 0:g}" + (
                    f", hand grade {mark.manual:g} kept and flagged for review" if mark.manual is not None else ""))
        change = ScoreChange(student, counted_total(old), counted_total(new), most, cells)
        if cells or change.before != change.after:
            changes.append(change)
    return changes


@dataclass
class Summary:
    lesson: str
    csv_path: Path
    rows: list[dict] = field(default_factory=list)
    graded: int = 0          # submissions executed in this run; the rest were unchanged and kept
    seconds: float = 0.0
    workers: int = 0
    error_log: Path | None = None  # tracebacks of submissions the grader could not finish
    changes: list[ScoreChange] | None = None  # None: nobody was graded before

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
        return any(row["status"] == Status.PLATFORM_MISMATCH for row in self.rows)

    def totals(self) -> dict[str, tuple[float, float, float]]:
        """Each student's counted points, maximum, and late penalty."""
        totals: dict[str, list[float]] = {}
        for row in self.rows:
            got = totals.setdefault(row["student_id"], [0.0, 0.0, 0.0])
            got[0] += float(row["points"])
            got[1] += float(row["max_points"])
            got[2] += float(row.get("late_penalty") or 0)
        return {student: (p, m, late) for student, (p, m, late) in totals.items()}

    def change_report(self) -> str:
        if self.changes is None:
            return ""
        if not self.changes:
            return "no score changed since the last grading"
        return (f"score changes since the last grading ({len(self.changes)} student(s)):\n"
                + "\n".join("  " + change.line() for change in self.changes))

    def table(self) -> str:
        """A student × question table of points, with totals."""
        questions = list(dict.fromkeys(row["grade_id"] for row in self.rows))
        students = list(dict.fromkeys(row["student_id"] for row in self.rows))
        cell = {(r["student_id"], r["grade_id"]): r for r in self.rows}
        width = max([len(s) for s in students] + [7])

        def mark(row: dict | None) -> str:
            if row is None:
                return "-"
            notes = [" hand" if row.get("manual_points") else "", "" if row["status"] == Status.OK else f" {row['status']}",
                     " review" if row.get("needs_review") else ""]
            return f"{float(row['points']):g}" + "".join(notes)

        marks = {(s, q): mark(cell.get((s, q))) for s in students for q in questions}
        widths = {q: max([len(q)] + [len(marks[s, q]) for s in students]) for q in questions}
        lines = [f"{'student':<{width}}  " + "  ".join(f"{q:<{widths[q]}}" for q in questions) + "  total"]
        for student in students:
            points, most, late = self.totals()[student]
            total = f"{points - late:g}/{most:g}" + (f" (late: {points:g} - {late:g})" if late else "")
            lines.append(f"{student:<{width}}  " + "  ".join(f"{marks[student, q]:<{widths[q]}}" for q in questions)
                         + f"  {total}")
        counts = Counter(row["status"] for row in self.rows)
        lines.append("statuses: " + ", ".join(f"{k}={v}" for k, v in sorted(counts.items())))
        if any(row.get("manual_points") for row in self.rows):
            lines.append("hand: a hand grade from the formgrader counts; "
                         "review: the autograder's result changed under it")
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


def with_marks(row: dict, mark: Mark | None, penalty: float | None) -> dict:
    """A ledger row with what the gradebook adds: a hand grade, its review flag, a late penalty."""
    manual = mark.manual if mark is not None else None
    return {**row, "points": f"{manual:g}" if manual is not None else row["points"], "auto_points": row["points"],
            "manual_points": "" if manual is None else f"{manual:g}",
            "needs_review": "yes" if mark is not None and manual is not None and mark.needs_review else "",
            "late_penalty": "" if penalty is None else f"{penalty:g}"}


def write_csv(course: Course, lesson: str, entries: list[LedgerEntry],
              marks: dict[str, SubmissionMarks] | None = None) -> Summary:
    """Write grades/<lesson>.csv from the ledger entries and the gradebook's hand grades and late
    penalties, atomically, one row per student × cell."""
    path = course.grades / f"{lesson}.csv"
    marks = gradebook_marks(course, lesson) if marks is None else marks
    rows = []
    for entry in sorted(entries, key=lambda e: e.student):
        got, first = marks.get(entry.student, SubmissionMarks()), set()
        for row in entry.rows:
            notebook = row["notebook"]
            penalty = got.penalty.get(notebook, 0.0) if notebook not in first else None
            first.add(notebook)
            mark = got.cells.get((notebook, row["grade_id"]))
            rows.append(with_marks({key: row[key] for key in LEDGER_COLUMNS}, mark, penalty))
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
    nb = with_verdicts(nb, {row.grade_id: verdict(row) for row in rows})
    for cell in nb.cells:
        cell.pop("attachments", None)
    nb.metadata = {key: nb.metadata[key] for key in ("kernelspec", "language_info") if key in nb.metadata}
    return htmlpage.sanitize(inert_output_metadata(nb))


def hand_graded(row: CellResult, mark: Mark | None) -> CellResult:
    """The row as it counts: a hand grade replaces the autograder's points, and says so."""
    if mark is None or mark.manual is None:
        return row
    detail = f"graded by hand: {mark.manual:g} (the autograder gave {row.points:g}); {row.detail}"
    return CellResult(row.grade_id, mark.manual, row.max_points, row.status, detail)


def late_text(penalty: float, seconds_late: float) -> str:
    minutes = seconds_late / 60
    when = f"{minutes / 60:.1f} hours" if minutes >= 120 else f"{minutes:.0f} minute(s)"
    return f"Late submission penalty: -{penalty:g} (submitted {when} after the due date)"


def summary_html(title: str, lesson: str, notebook: str, rows: list[CellResult], penalty: float = 0.0,
                 seconds_late: float = 0.0) -> str:
    """The score summary, from the grader's own values only, escaped."""
    points, most = sum(r.points for r in rows), sum(r.max_points for r in rows)
    lines = "".join(f"<tr><td>{escape(r.grade_id)}</td><td>{r.points:g} / {r.max_points:g}</td>"
                    f"<td>{escape(r.status)}</td><td>{escape(r.detail)}</td></tr>" for r in rows)
    which = lesson if notebook == lesson else f"{lesson}, notebook {notebook}"
    score = f"Score: {points - penalty:g} / {most:g}"
    late = f"<p>{escape(late_text(penalty, seconds_late))}; {points:g} before it</p>" if penalty else ""
    return (f'<section id="jaxcourse-summary" class="jp-RenderedHTMLCommon" style="margin:1em 1em 2em">'
            f"<h1>Feedback: {escape(title)}</h1><p>Lesson {escape(which)}</p>"
            f"<p><strong>{score}</strong></p>{late}"
            f"<table><thead><tr><th>cell</th><th>points</th><th>status</th><th>detail</th></tr></thead>"
            f"<tbody>{lines}</tbody></table></section>")


def write_lesson_feedback(course: Course, lesson: str, notes: list[str] | None = None
                          ) -> tuple[list[Path], list[str]]:
    """Write the feedback pages of every graded submission of `lesson`, as nbgrader's
    generate_feedback does after autograde: rendering HTML is work the grading run skips.
    Hand grades and late penalties come from the gradebook; beside the pages go the files
    `nbgrader release_feedback` reads.

    Returns the pages written and the students skipped, with the reason; `notes` gets the
    students whose pages nbgrader's exchange cannot deliver."""
    notebooks = list(lesson_structure(course, lesson))
    submissions, _ = collect(course, lesson, notebooks)
    marks = gradebook_marks(course, lesson)
    written, skipped = [], []
    for submission in submissions:
        try:  # one student's folder or page fails only that student's feedback
            reason = student_feedback(course, submission, notebooks, marks, written, notes)
        except Exception as exc:
            reason = f"feedback failed: {type(exc).__name__}: {inert(exc, 120)}"
        if reason:
            skipped.append(f"{submission.student}: {reason}")
    return written, skipped


def student_feedback(course: Course, submission: Submission, notebooks: list[str], marks: dict[str, SubmissionMarks],
                     written: list[Path], notes: list[str] | None) -> str | None:
    """Write one graded submission's pages (appended to `written`) and nbgrader's files; or why there are none."""
    entry = LedgerEntry.load(course, submission.lesson, submission.student)
    if entry is None or not entry.cells:
        return "not graded yet"
    if entry.submission_hash != submission.content_hash():
        return "resubmitted since grading; grade again"
    got = marks.get(submission.student, SubmissionMarks())
    for notebook in notebooks:
        path, submitted = submission.notebooks.get(notebook), None
        if path is not None:
            try:
                submitted, _ = read_submission(path)
            except UnreadableSubmission:
                pass
        rows = [hand_graded(CellResult(**fields), got.cells.get((notebook, fields["grade_id"])))
                for fields in entry.cells.get(notebook, [])]
        written.append(write_feedback(course, submission.lesson, submission.student, notebook, submitted, rows,
                                      got.penalty.get(notebook, 0.0), got.seconds_late))
    if not write_exchange_files(course, submission.lesson, submission.student, submission.exchange) and notes is not None:
        notes.append(f"{submission.student}: not submitted through nbgrader's exchange (no submission_secret.txt), "
                     "so `nbgrader fetch_feedback` cannot find the page: send it yourself")
    return None


def write_exchange_files(course: Course, lesson: str, student: str, exchange: dict[str, str]) -> bool:
    """timestamp.txt and submission_secret.txt beside the pages, where `nbgrader release_feedback`
    reads them (`exchange`: their texts as collect read them, within their caps). A submission that
    did not come through the exchange has neither: it gets the present time and a fresh secret, so
    releasing still works (no student can fetch that page). Returns whether it had its own secret."""
    target = course.feedback / student / lesson
    own = True
    for name in EXCHANGE_FILES:
        if name in exchange:
            atomic_write(target / name, exchange[name])
            continue
        own = own and name != "submission_secret.txt"
        if not (target / name).is_file():
            made = secrets.token_hex(64) if name == "submission_secret.txt" else \
                datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")
            atomic_write(target / name, made)
    return own


def write_feedback(course: Course, lesson: str, student: str, notebook: str,
                   submitted: NotebookNode | None, rows: list[CellResult], penalty: float = 0.0,
                   seconds_late: float = 0.0) -> Path:
    """Write feedback/<student>/<lesson>/<notebook>.html: the score summary on top, then the
    student's own notebook. Never hidden tests, hidden inputs or expected values."""
    target = course.feedback / student / lesson / f"{notebook}.html"
    title = lesson_title(course, lesson)
    summary = summary_html(title, lesson, notebook, rows, penalty, seconds_late)
    page = None
    if submitted is not None:
        try:
            page = htmlpage.render(feedback_notebook(submitted, rows), f"Feedback: {title}", summary)
        except Exception:  # outputs nbconvert cannot render: the summary alone still reaches the student
            summary += "<p>Your notebook's outputs could not be shown on this page.</p>"
    if page is None:
        page = htmlpage.render(nbformat.v4.new_notebook(), f"Feedback: {title}", summary)
    atomic_write(target, page)
    # release_feedback copies the page, mode and all, into the exchange, where the student reads it.
    target.chmod(0o644)
    return target
