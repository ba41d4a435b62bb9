"""Report grades: the CSV, per-student HTML feedback, and a terminal table."""
from __future__ import annotations

import copy
import csv
import io
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert import HTMLExporter
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import ClearHiddenTests

from .course import Course
from .record import LedgerEntry, atomic_write
from .score import CellResult

CSV_COLUMNS = ["student_id", "notebook", "grade_id", "points", "max_points", "status", "detail", "platform"]


@dataclass
class Summary:
    lesson: str
    csv_path: Path
    rows: list[dict] = field(default_factory=list)
    graded: int = 0          # submissions executed in this run; the rest were unchanged and kept
    seconds: float = 0.0
    workers: int = 0

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


def csv_row(student: str, notebook: str, row: CellResult, platform: str) -> dict:
    return {"student_id": student, "notebook": notebook, "grade_id": row.grade_id,
            "points": f"{row.points:g}", "max_points": f"{row.max_points:g}", "status": row.status,
            "detail": row.detail, "platform": platform}


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
    """The student's notebook with hidden tests removed and each test cell's outputs replaced by its verdict."""
    nb = copy.deepcopy(nb)
    nb, _ = ClearHiddenTests(enforce_metadata=False).preprocess(nb, {})
    verdicts = {row.grade_id: row for row in rows}
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        row = verdicts.get(grade_id)
        if row is not None and cell.cell_type == "code":
            text = f"{row.points:g} / {row.max_points:g} points: {row.status}"
            if row.detail:
                text += f"\n{row.detail}"
            cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=text + "\n")]
    nb.metadata.pop("jaxcourse", None)
    return nb


def write_feedback(course: Course, lesson: str, student: str, notebook: str,
                   nb: NotebookNode | None, rows: list[CellResult]) -> Path:
    """Write feedback/<student>/<lesson>/<notebook>.html: never hidden tests or expected values."""
    target = course.feedback / student / lesson / f"{notebook}.html"
    if nb is None:
        summary = "".join(f"<li>{r.grade_id}: {r.points:g}/{r.max_points:g} {r.status}: {_escape(r.detail)}</li>"
                          for r in rows)
        html = f"<html><body><h1>{_escape(lesson)}: {_escape(notebook)}</h1><ul>{summary}</ul></body></html>"
    else:
        html, _ = HTMLExporter(template_name="lab").from_notebook_node(feedback_notebook(nb, rows))
    atomic_write(target, html)
    return target


def _escape(text: str) -> str:
    return (str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;"))
