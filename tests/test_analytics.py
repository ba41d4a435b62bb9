"""`jaxcourse report`: the class analytics hold the right numbers for a small class."""
import csv
import subprocess
import sys

from conftest import fresh_tiny, grade, release_nb, submit_solution
from jaxcourse.authoring import fabricate
from jaxcourse.grading.analytics import write_report


def test_report_numbers_for_a_small_class(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "right")
    (wrong,) = [m for m in fabricate.mutants(course, "tiny") if m.name == "wrong-option"]
    fabricate.submit(course, "wrong", "tiny", fabricate.solved(course, "tiny", release_nb(course, "tiny"), wrong))
    fabricate.submit(course, "blank", "tiny", release_nb(course, "tiny"))
    (course.submitted / "absent" / "tiny").mkdir(parents=True)  # a folder with no tiny.ipynb
    (course.submitted / "garbled" / "tiny").mkdir(parents=True)
    (course.submitted / "garbled" / "tiny" / "tiny.ipynb").write_text('{"cells": [')
    grade(course, "tiny")

    index, text = write_report(course, "tiny")
    folder = index.parent
    assert {p.name for p in folder.iterdir()} == {"index.html", "questions.png", "totals.png", "failures.csv"}
    for png in ("questions.png", "totals.png"):
        assert (folder / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    lines = text.splitlines()
    # the missing and the unreadable notebooks are counted apart, not as failures of every question
    assert lines[0] == "tiny: 5 students, mean total 1.67 / 3 over the 3 with a result"
    assert "  sums-test: pass rate 67%, mean 1.33 / 2" in lines
    assert "  checkpoint-test: pass rate 33%, mean 0.33 / 1" in lines
    assert "      1 x failed: checkpoint: values differ" in lines
    assert "      1 x error: NotImplementedError" in lines
    assert lines[lines.index("  counted apart, no result for any question: 2 notebook(s)") + 1:] == [
        "      1 x missing: tiny.ipynb was not submitted",
        "      1 x error: not valid notebook JSON: Expecting value: line 1 column 12 (char 11)"]
    with open(folder / "failures.csv", newline="") as handle:
        failures = list(csv.DictReader(handle))
    assert sorted((f["grade_id"], f["count"]) for f in failures) == [
        ("(no result)", "1"), ("(no result)", "1"), ("checkpoint-test", "1"), ("checkpoint-test", "1"),
        ("sums-test", "1")]
    page = index.read_text()
    assert "67%" in page and "33%" in page and "questions.png" in page and "totals.png" in page
    assert "Counted apart" in page and "tiny.ipynb was not submitted" in page


def test_report_before_grading_is_a_clear_error(tmp_path):
    course = fresh_tiny(tmp_path)
    done = subprocess.run([sys.executable, "-m", "jaxcourse.cli", "report", "tiny", "--course-dir", str(course.root)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and "run `jaxcourse grade tiny` first" in done.stderr
