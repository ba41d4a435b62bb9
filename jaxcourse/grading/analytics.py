"""Class analytics for instructors: which questions a class failed, and why.

`jaxcourse report LESSON` reads grades/<lesson>.csv and the gradebook and writes
reports/<lesson>/: questions.png, totals.png, failures.csv and index.html. A submission with no
result for any question (a missing or unreadable notebook, one stopped before the receipt, a
tampered one) is counted apart, never as a failure of every question.
"""
from __future__ import annotations

import csv
import html
import io
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry

from ..course import COURSE_ID, Course, CourseError
from .record import atomic_write
from .report import read_csv
from .score import Status

TOP_FAILURES = 3
NO_RESULT = "(no result)"  # failures.csv's grade_id for a submission counted apart


@dataclass
class Question:
    grade_id: str
    max_points: float
    points: list[float] = field(default_factory=list)
    failures: Counter = field(default_factory=Counter)

    @property
    def pass_rate(self) -> float:
        return sum(p == self.max_points for p in self.points) / len(self.points) if self.points else 0.0

    @property
    def mean_points(self) -> float:
        return sum(self.points) / len(self.points) if self.points else 0.0


def reason(detail: str) -> str:
    """The first clause of a detail: the part that groups alike failures."""
    return detail.split("; ")[0].strip() or "(no detail)"


def no_result(rows: list[dict]) -> bool:
    """A submitted notebook that gave no answer to any question: missing, unreadable, stopped
    before the grader's receipt, or tampered. Every row then holds the same failure, which says
    nothing about any one question."""
    return (rows[0]["platform"] == "unknown" and rows[0]["status"] != Status.OK
            and len({(row["status"], row["detail"]) for row in rows}) == 1)


@dataclass
class ClassResults:
    questions: list[Question]
    totals: dict[str, float]        # student -> total points, for students with a result
    most: float                     # the lesson's maximum total
    apart: Counter = field(default_factory=Counter)   # "status: reason" -> submitted notebooks with no result
    students: int = 0               # every student with a row, counted apart or not


def analyse(course: Course, lesson: str) -> ClassResults:
    course.lesson_notebook(lesson)  # a mistyped id gets the same error as everywhere else
    path = course.grades / f"{lesson}.csv"
    if not path.is_file():
        raise CourseError(f"no grades for {lesson}: run `jaxcourse grade {lesson}` first ({path} is missing)")
    # A submission the grader could not finish is graded again next run: it has no score yet.
    rows = [row for row in read_csv(path) if row["status"] != Status.INTERNAL_ERROR]
    by_notebook: dict[tuple[str, str], list[dict]] = {}
    for row in rows:
        by_notebook.setdefault((row["student_id"], row["notebook"]), []).append(row)
    questions: dict[str, Question] = {}
    apart: Counter = Counter()
    answered = set()
    for (student, _), group in by_notebook.items():
        if no_result(group):  # counted apart, not as a failure of every question
            apart[f"{group[0]['status']}: {reason(group[0]['detail'])}"] += 1
            for row in group:
                questions.setdefault(row["grade_id"], Question(row["grade_id"], float(row["max_points"])))
            continue
        answered.add(student)
        for row in group:
            question = questions.setdefault(row["grade_id"], Question(row["grade_id"], float(row["max_points"])))
            question.points.append(float(row["points"]))
            if row["status"] != "ok":
                question.failures[f"{row['status']}: {reason(row['detail'])}"] += 1
    totals = {}
    with Gradebook(course.db_url, COURSE_ID) as gb:
        for student in sorted(answered):
            try:  # the gradebook's score includes manual grades made in the formgrader
                totals[student] = float(gb.find_submission(lesson, student).score)
            except MissingEntry:  # a CSV id the gradebook spells otherwise: the CSV's own points
                totals[student] = sum(float(r["points"]) for r in rows if r["student_id"] == student)
    return ClassResults(list(questions.values()), totals, sum(q.max_points for q in questions.values()), apart,
                        len({row["student_id"] for row in rows}))


def plot(questions: list[Question], totals: dict[str, float], most: float, folder: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    names = [q.grade_id for q in questions]
    fig, (rate_ax, points_ax) = plt.subplots(1, 2, figsize=(11, 4), constrained_layout=True)
    rate_ax.bar(names, [100 * q.pass_rate for q in questions], color="tab:green")
    rate_ax.set(ylim=(0, 100), ylabel="students with full points (%)", title="pass rate per question")
    xs = range(len(questions))
    points_ax.bar([x - 0.2 for x in xs], [q.mean_points for q in questions], width=0.4, label="mean points")
    points_ax.bar([x + 0.2 for x in xs], [q.max_points for q in questions], width=0.4, label="max points",
                  color="lightgray")
    points_ax.set_xticks(list(xs), names)
    points_ax.set(ylabel="points", title="mean against max points")
    points_ax.legend()
    for ax in (rate_ax, points_ax):
        ax.tick_params(axis="x", rotation=30)
    fig.savefig(folder / "questions.png", dpi=100)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4), constrained_layout=True)
    ax.hist(list(totals.values()), bins=[b - 0.5 for b in range(int(most) + 2)], color="tab:blue", edgecolor="white")
    ax.set(xlabel=f"total points (of {most:g})", ylabel="students", title=f"total scores ({len(totals)} students)")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    fig.savefig(folder / "totals.png", dpi=100)
    plt.close(fig)


def summary_text(lesson: str, results: ClassResults) -> str:
    totals, most = results.totals, results.most
    mean = sum(totals.values()) / len(totals) if totals else 0.0
    if results.apart:
        lines = [f"{lesson}: {results.students} students, mean total {mean:.2f} / {most:g} "
                 f"over the {len(totals)} with a result"]
    else:
        lines = [f"{lesson}: {results.students} students, mean total {mean:.2f} / {most:g}"]
    for q in results.questions:
        lines.append(f"  {q.grade_id}: pass rate {100 * q.pass_rate:.0f}%, mean {q.mean_points:.2f} / {q.max_points:g}")
        for text, count in q.failures.most_common(TOP_FAILURES):
            lines.append(f"      {count} x {text}")
    if results.apart:
        lines.append(f"  counted apart, no result for any question: {sum(results.apart.values())} notebook(s)")
        lines += [f"      {count} x {text}" for text, count in results.apart.most_common()]
    return "\n".join(lines)


def write_report(course: Course, lesson: str) -> tuple[Path, str]:
    """Write reports/<lesson>/ and return its index.html and the plain-text summary."""
    results = analyse(course, lesson)
    questions = results.questions
    folder = course.root / "reports" / lesson
    folder.mkdir(parents=True, exist_ok=True)
    plot(questions, results.totals, results.most, folder)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["grade_id", "count", "failure"])
    for q in questions:
        for text, count in q.failures.most_common():
            writer.writerow([q.grade_id, count, text])
    for text, count in results.apart.most_common():
        writer.writerow([NO_RESULT, count, text])
    atomic_write(folder / "failures.csv", buffer.getvalue())
    text = summary_text(lesson, results)
    rows = "".join(
        f"<tr><td>{html.escape(q.grade_id)}</td><td>{100 * q.pass_rate:.0f}%</td>"
        f"<td>{q.mean_points:.2f} / {q.max_points:g}</td><td><ul>"
        + "".join(f"<li>{count} × {html.escape(t)}</li>" for t, count in q.failures.most_common(TOP_FAILURES))
        + "</ul></td></tr>" for q in questions)
    apart = "" if not results.apart else (
        "<h2>Counted apart</h2><p>Submissions with no result for any question, left out of the pass rates, "
        "the means and the histogram:</p><ul>"
        + "".join(f"<li>{count} × {html.escape(t)}</li>" for t, count in results.apart.most_common()) + "</ul>")
    page = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(lesson)} report</title></head>"
            f"<body><h1>{html.escape(lesson)}</h1><pre>{html.escape(text.splitlines()[0])}</pre>"
            "<table border='1' cellpadding='4'><tr><th>question</th><th>pass rate</th><th>mean points</th>"
            f"<th>most common failures</th></tr>{rows}</table>{apart}"
            "<h2>Per question</h2><img src='questions.png' alt='pass rate and mean points per question'>"
            "<h2>Totals</h2><img src='totals.png' alt='histogram of total scores'>"
            "<p>All failures: <a href='failures.csv'>failures.csv</a></p></body></html>")
    atomic_write(folder / "index.html", page)
    return folder / "index.html", text
