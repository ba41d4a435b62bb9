"""The pure parts of reporting, table by table: the feedback page's Markdown and math, hand
grades and late penalties in the CSV, the terminal table and the regrade report (no kernel)."""
from __future__ import annotations

import re

import nbformat
import pytest

from jaxcourse.grading import htmlpage
from jaxcourse.grading.record import Mark, SubmissionMarks
from jaxcourse.grading.report import Summary, hand_graded, score_changes, summary_html, with_marks
from jaxcourse.grading.score import CellResult

pytestmark = pytest.mark.fast

MARKDOWN = [
    # (Markdown, what the HTML must hold, what it must not)
    ("# Meet your arrays", ['<h1 id="Meet-your-arrays">Meet your arrays'], ["&lt;h1"]),
    ("one paragraph\n\nanother", ["<p>one paragraph</p>", "<p>another</p>"], ["&lt;p"]),
    ("Add $1+2+3 = 6$.", ['<math xmlns="http://www.w3.org/1998/Math/MathML" display="inline">', "<mn>6</mn>"],
     ["$"]),
    ("$$\\frac{a}{b}$$", ['display="block"', "<mfrac>"], ["$$"]),
    ("| a | b |\n|---|---|\n| 1 | 2 |", ["<table>", "<th>a</th>", "<td>1</td>"], ["&lt;t"]),
    ("<details><summary>Hint</summary>use `axis`</details>", ["<details>", "<summary>Hint</summary>"],
     ["&lt;details"]),
    ("```python\nx = 1 < 2\n```", ['<div class="highlight">', "&lt;"], ["<script"]),
    # Student Markdown that would run or reach out is shown as text, never as markup.
    ("<script>alert(1)</script>", ["&lt;script&gt;"], ["<script"]),
    ('<img src=x onerror="alert(1)">', [], ["onerror=\"alert", "<img src=\"x\" onerror"]),
    ("[link](javascript:alert(1))", [], ['href="javascript']),
    ("$\\text{<script>alert(1)</script>}$", ["<mtext>&lt;script&gt;"], ["<script>"]),
    ("$\\unknownmacro{x$", [], ["<script"]),
]


@pytest.mark.parametrize("markdown, present, absent", MARKDOWN, ids=[m[0][:24] for m in MARKDOWN])
def test_markdown_renders_and_is_cleaned_after_rendering(markdown, present, absent):
    html = htmlpage.markdown_to_html(markdown)
    for text in present:
        assert text in html, html
    for text in absent:
        assert text not in html, html


def test_a_page_loads_nothing_and_runs_nothing():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("# Title\n\nSome $x^2$."),
                                         nbformat.v4.new_code_cell("print(1)")])
    nb.cells[1].outputs = [nbformat.v4.new_output("display_data", data={
        "text/html": "<table><tr><td>kept</td></tr></table><script>alert(1)</script>",
        "application/javascript": "alert(2)", "text/plain": "x"})]
    page = htmlpage.render(htmlpage.sanitize(nb), "Feedback: a <title>", "<section id='s'>summary</section>")
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert not re.search(r"<script\b", page) and "alert(2)" not in page
    assert not re.search(r"""(src|href)=["']https?://""", page)
    assert "<td>kept</td>" in page and "<math" in page
    assert "<title>Feedback: a &lt;title&gt;</title>" in page
    assert page.index("summary</section>") < page.index('<h1 id="Title"')


def test_a_hand_grade_counts_and_says_what_the_autograder_gave():
    row = CellResult("sums-test", 0.0, 2.0, "failed", "values differ")
    assert hand_graded(row, None) is row and hand_graded(row, Mark(0.0, None, False)) is row
    graded = hand_graded(row, Mark(0.0, 1.5, False))
    assert (graded.points, graded.status) == (1.5, "failed")
    assert graded.detail.startswith("graded by hand: 1.5 (the autograder gave 0)")
    summary = summary_html("Tiny lesson", "tiny", "tiny", [graded, CellResult("c", 1, 1, "ok", "")], 2.5, 540)
    assert "Score: 0 / 3" in summary and "Late submission penalty: -2.5 (submitted 9 minute(s) after" in summary


LEDGER = {"student_id": "bob", "notebook": "tiny", "grade_id": "sums-test", "points": "0", "max_points": "2",
          "status": "failed", "detail": "d", "platform": "cpu"}

MARKS = [
    # (gradebook mark, penalty on this row, points, manual_points, needs_review, late_penalty)
    (None, 0.0, "0", "", "", "0"),
    (Mark(0.0, None, False), None, "0", "", "", ""),
    (Mark(0.0, 1.5, False), 0.0, "1.5", "1.5", "", "0"),
    (Mark(2.0, 1.5, True), 3.0, "1.5", "1.5", "yes", "3"),
    (Mark(2.0, None, True), None, "0", "", "", ""),  # a flag without a hand grade means nothing here
]


@pytest.mark.parametrize("mark, penalty, points, manual, review, late", MARKS)
def test_csv_rows_carry_hand_grades_and_late_penalties(mark, penalty, points, manual, review, late):
    row = with_marks(LEDGER, mark, penalty)
    assert (row["points"], row["auto_points"], row["manual_points"], row["needs_review"], row["late_penalty"]) == (
        points, "0", manual, review, late)


def test_the_table_marks_hand_grades_and_totals_after_the_late_penalty():
    rows = [with_marks({**LEDGER, "student_id": "bob"}, Mark(0.0, 1.5, True), 0.0),
            with_marks({**LEDGER, "student_id": "bob", "grade_id": "c", "points": "1", "max_points": "1",
                        "status": "ok"}, None, None),
            with_marks({**LEDGER, "student_id": "dee", "points": "2", "status": "ok"}, None, 2.0),
            with_marks({**LEDGER, "student_id": "dee", "grade_id": "c", "points": "1", "max_points": "1",
                        "status": "ok"}, None, None)]
    table = Summary("tiny", None, rows).table()
    assert re.search(r"^bob\s+1\.5 hand failed review\s+1\s+2\.5/3$", table, re.M), table
    assert re.search(r"^dee\s+2\s+1\s+1/3 \(late: 3 - 2\)$", table, re.M), table


def marks(auto: dict, manual: dict | None = None, penalty: float = 0.0) -> SubmissionMarks:
    return SubmissionMarks({("tiny", k): Mark(v, (manual or {}).get(k), False) for k, v in auto.items()},
                           {"tiny": penalty})


def test_a_regrade_reports_each_students_change_and_only_theirs():
    before = {"ada": marks({"s": 2, "c": 1}), "bob": marks({"s": 0, "c": 1}, {"s": 1.5}),
              "cy": marks({"s": 2, "c": 1}, {"c": 0.5}), "dee": marks({"s": None, "c": None})}
    after = {"ada": marks({"s": 2, "c": 1}), "bob": marks({"s": 0, "c": 0}, {"s": 1.5}),
             "cy": marks({"s": 2, "c": 0}, {"c": 0.5}), "dee": marks({"s": 2, "c": 1})}
    lines = [change.line() for change in score_changes(before, after, ["ada", "bob", "cy", "dee"], 3)]
    assert lines == ["bob: 2.5/3 -> 1.5/3 (c 1 -> 0)",
                     "cy: 2.5/3 -> 2.5/3 (c 1 -> 0, hand grade 0.5 kept and flagged for review)"]
    summary = Summary("tiny", None, changes=[])
    assert summary.change_report() == "no score changed since the last grading"
