"""A whole term with real nbgrader and its exchange in a temporary root (docs/instructors.md, "A term, command by command").

Two lessons (the fixture's tiny one and welcome-02), four students, each in a folder of their
own with their own exchange cache. Everything goes through nbgrader's own commands, run as
programs: release_assignment, fetch_assignment, submit (a resubmission, a late one), collect,
then `jaxcourse grade`; a hand grade set through nbgrader's gradebook API as the formgrader
does; a hidden test fixed mid-term and the regrade's report of each student's change;
`jaxcourse feedback`, release_feedback and fetch_feedback; then `nbgrader export` with
nbgrader's CSV and this course's LMS exporters. nbgrader's own autograde refuses and its
generate_feedback shows no hidden test.
"""
from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import nbformat
from nbgrader.api import Gradebook

from conftest import FIXTURES, REPO
from jaxcourse.authoring import fabricate
from jaxcourse.authoring.lessonfile import HIDDEN_REGION
from jaxcourse.authoring.release import release
from jaxcourse.course import COURSE_ID, Course
from jaxcourse.grading.record import nbgrader_api

BIN = Path(sys.executable).parent
# The checkpoint's hidden test as first released: it lets the wrong answer 1 through.
LAX = 'grader_check("checkpoint", checkpoint_answer > 0)'
FIXED = 'grader_check("checkpoint", checkpoint_answer)'


def run(cwd: Path, *command: str, env: dict) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, \
        f"{' '.join(command)} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout + done.stderr


def nbgrader(cwd: Path, *args: str, env: dict) -> str:
    return run(cwd, str(BIN / "nbgrader"), *args, env=env)


def jaxcourse(course: Course, *args: str, env: dict) -> str:
    quiet = ["--quiet"] if args[0] == "grade" else []  # no progress bar
    return run(course.root, str(BIN / "jaxcourse"), *args, *quiet, env=env)


def set_checkpoint_test(course: Course, hidden: str) -> None:
    path = course.lesson_notebook("tiny")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.get("id") == "checkpoint-test":
            cell.source = re.sub(r"grader_check\(\"checkpoint\", .*\)", hidden, cell.source)
    nbformat.write(nb, path)


def hidden_lines(course: Course, lesson: str) -> list[str]:
    source = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    return [line.strip() for cell in source.cells for body in HIDDEN_REGION.findall(cell.source)
            for line in body.splitlines() if line.strip()] + [LAX]


def csv_rows(path: Path) -> list[dict]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_a_term_through_nbgrader_and_its_exchange(tmp_path):
    exchange = tmp_path / "exchange"
    exchange.mkdir()
    env = {**os.environ, "HOME": str(tmp_path / "home"), "JAX_PLATFORMS": "cpu"}
    course = Course.at(tmp_path / "course")
    shutil.copytree(FIXTURES / "source" / "tiny", course.source / "tiny")
    shutil.copytree(REPO / "source" / "welcome-02", course.source / "welcome-02")
    set_checkpoint_test(course, LAX)
    release(course, ["tiny", "welcome-02"])
    with (course.root / "nbgrader_config.py").open("a") as config:
        config.write(f"c.Exchange.root = {str(exchange)!r}\nc.LateSubmissionPlugin.penalty_method = 'zero'\n")

    # The instructor releases both lessons to the exchange.
    for lesson in ("tiny", "welcome-02"):
        nbgrader(course.root, "release_assignment", lesson, env=env)

    # Each student fetches, works and submits from a folder of their own.
    answers = {"ada": None, "bob": "wrong-axis", "cy": "wrong-option", "dee": None}
    mutants = {m.name: m for m in fabricate.mutants(course, "tiny")}

    def student_folder(student: str) -> Path:
        home = tmp_path / "students" / student
        if not home.is_dir():
            home.mkdir(parents=True)
            (home / "nbgrader_config.py").write_text(
                f"c = get_config()\nc.CourseDirectory.course_id = {COURSE_ID!r}\n"
                f"c.Exchange.root = {str(exchange)!r}\nc.Exchange.cache = {str(home / 'cache')!r}\n")
        return home

    def work_and_submit(student: str, lesson: str, wrong: str | None) -> None:
        home = student_folder(student)
        if not (home / lesson).is_dir():
            nbgrader(home, "fetch_assignment", lesson, env=env)
        fetched = home / lesson / f"{lesson}.ipynb"
        nb = fabricate.solved(course, lesson, nbformat.read(fetched, as_version=4), wrong and mutants[wrong])
        nbformat.write(nb, fetched)
        nbgrader(home, "submit", lesson, f"--student={student}", env=env)

    work_and_submit("ada", "tiny", "wrong-axis")  # a first try, replaced below
    for student in ("ada", "bob", "cy"):
        work_and_submit(student, "tiny", answers[student])
    time.sleep(0.05)
    due = datetime.now(timezone.utc)
    nbgrader(course.root, "db", "assignment", "add", "tiny", f"--duedate={due.isoformat()}", env=env)
    time.sleep(0.05)
    work_and_submit("dee", "tiny", None)  # after the due date
    # dee then sets her submission's clock an hour back, where the student's own files keep it:
    # the inbound folder's name and timestamp.txt. The exchange's ctime still says late.
    forged = (due - timedelta(hours=1)).strftime("%Y-%m-%d %H:%M:%S.%f UTC")
    inbound, = (exchange / COURSE_ID / "inbound").glob("dee+tiny+*")
    student_id, lesson, _, rest = inbound.name.split("+")
    (inbound / "timestamp.txt").write_text(forged)
    inbound.rename(inbound.with_name("+".join((student_id, lesson, forged, rest))))
    for student in answers:
        work_and_submit(student, "welcome-02", None)

    # The instructor collects and grades.
    for lesson in ("tiny", "welcome-02"):
        nbgrader(course.root, "collect", lesson, env=env)
    assert sorted(p.name for p in (course.submitted / "ada" / "tiny").iterdir()) == [
        "submission_secret.txt", "timestamp.txt", "tiny.ipynb"]
    out = jaxcourse(course, "grade", "tiny", env=env)
    print(out)
    rows = {(r["student_id"], r["grade_id"]): r for r in csv_rows(course.grades / "tiny.csv")}
    assert rows["ada", "sums-test"]["points"] == "2" and rows["ada", "checkpoint-test"]["points"] == "1"
    assert rows["bob", "sums-test"]["points"] == "0" and rows["bob", "sums-test"]["status"] == "failed"
    assert rows["cy", "checkpoint-test"]["points"] == "1", "the lax hidden test lets cy's wrong answer through"
    assert rows["dee", "sums-test"]["late_penalty"] == "3" and rows["ada", "sums-test"]["late_penalty"] == "0"
    assert f"timestamp.txt says {forged[:19]} UTC, the exchange received it at" in rows["dee", "sums-test"]["detail"]
    assert "timestamp.txt says" not in rows["ada", "sums-test"]["detail"]
    assert re.search(r"^dee\s.*0/3 \(late: 3 - 3\)$", out, re.M), out
    out = jaxcourse(course, "grade", "welcome-02", env=env)
    assert {r["status"] for r in csv_rows(course.grades / "welcome-02.csv")} == {"ok"}, out

    # nbgrader's own autograde refuses and changes nothing.
    before = (course.gradebook.read_bytes(), (course.autograded / "bob" / "tiny" / "tiny.ipynb").read_bytes())
    refused = subprocess.run([str(BIN / "nbgrader"), "autograde", "tiny", "--force"], cwd=course.root, env=env,
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode == 1 and "nbgrader autograde is turned off in this course" in refused.stderr
    assert "jaxcourse grade tiny" in refused.stderr
    formgrader = nbgrader_api(course).autograde("tiny", "bob")  # the formgrader's Autograde button
    assert not formgrader["success"] and "nbgrader autograde is turned off" in formgrader["log"]
    assert before == (course.gradebook.read_bytes(), (course.autograded / "bob" / "tiny" / "tiny.ipynb").read_bytes())

    # Hand grades, as the formgrader sets them; and a score changed behind the grader's back
    # (as an older `nbgrader autograde` did: 0 for a right answer).
    with Gradebook(course.db_url, COURSE_ID) as gb:
        gb.find_grade("sums-test", "tiny", "tiny", "bob").manual_score = 1.5
        gb.find_grade("checkpoint-test", "tiny", "tiny", "cy").manual_score = 0.5
        gb.find_grade("sums-test", "tiny", "tiny", "ada").auto_score = 0
        gb.db.commit()
    out = jaxcourse(course, "grade", "tiny", env=env)
    assert "graded 1 of 4 submissions" in out, out  # ada again; a hand grade is not a reason to
    assert "ada: 1/3 -> 3/3 (sums-test 0 -> 2)" in out, out
    rows = {(r["student_id"], r["grade_id"]): r for r in csv_rows(course.grades / "tiny.csv")}
    assert (rows["bob", "sums-test"]["points"], rows["bob", "sums-test"]["auto_points"],
            rows["bob", "sums-test"]["manual_points"]) == ("1.5", "0", "1.5")
    assert re.search(r"^bob\s+1\.5 hand failed\s+1\s+2\.5/3$", out, re.M), out

    out = jaxcourse(course, "grade", "tiny", "--student", "bob", "--force", env=env)
    assert "graded 1 of 4 submissions" in out and re.search(r"^bob\s+1\.5 hand failed\s+1\s+2\.5/3$", out, re.M)
    assert "no score changed since the last grading" in out, out
    unknown = subprocess.run([str(BIN / "jaxcourse"), "grade", "tiny", "--student", "zed"], cwd=course.root,
                             env=env, capture_output=True, text=True, timeout=300)
    assert unknown.returncode == 2 and "no submission of tiny from zed" in unknown.stderr

    # Mid-term: the checkpoint's hidden test is fixed; grading again reports each change.
    set_checkpoint_test(course, FIXED)
    out = jaxcourse(course, "grade", "tiny", env=env)
    print(out)
    assert "score changes since the last grading (1 student(s)):" in out, out
    assert "cy: 2.5/3 -> 2.5/3 (checkpoint-test 1 -> 0, hand grade 0.5 kept and flagged for review)" in out, out
    rows = {(r["student_id"], r["grade_id"]): r for r in csv_rows(course.grades / "tiny.csv")}
    assert rows["cy", "checkpoint-test"]["auto_points"] == "0" and rows["cy", "checkpoint-test"]["needs_review"]
    assert rows["bob", "sums-test"]["points"] == "1.5" and not rows["bob", "sums-test"]["needs_review"]
    with Gradebook(course.db_url, COURSE_ID) as gb:
        assert gb.find_grade("checkpoint-test", "tiny", "tiny", "cy").needs_manual_grade
        assert gb.find_grade("sums-test", "tiny", "tiny", "bob").manual_score == 1.5
        gb.find_grade("checkpoint-test", "tiny", "tiny", "cy").manual_score = None  # the instructor agrees
        gb.db.commit()

    # Feedback: written, released to the exchange, fetched by each student.
    out = jaxcourse(course, "feedback", "tiny", env=env)
    assert "wrote 4 feedback page(s)" in out and "note:" not in out, out
    nbgrader(course.root, "release_feedback", "tiny", env=env)
    released = list((exchange / COURSE_ID / "feedback").glob("*.html"))
    assert len(released) == 4 and all(p.stat().st_mode & 0o777 == 0o644 for p in released)  # students can read
    secrets_ = hidden_lines(course, "tiny")
    for student in answers:
        nbgrader(student_folder(student), "fetch_feedback", "tiny", f"--student={student}", env=env)
        pages = list((student_folder(student) / "tiny" / "feedback").glob("*/tiny.html"))
        assert len(pages) == 1, (student, pages)  # ada's first try has no feedback: it was not collected
        page = pages[0].read_text()
        assert page == (course.feedback / student / "tiny" / "tiny.html").read_text()
        assert not [line for line in secrets_ if line in page], student
    page = lambda student: (course.feedback / student / "tiny" / "tiny.html").read_text()  # noqa: E731
    assert "Score: 3 / 3" in page("ada") and "Score: 2 / 3" in page("cy")
    assert "Score: 2.5 / 3" in page("bob") and "graded by hand: 1.5 (the autograder gave 0)" in page("bob")
    assert "Score: 0 / 3" in page("dee") and "Late submission penalty: -3" in page("dee")

    # Grades out: nbgrader's CSV, Canvas's import and a plain LMS table.
    nbgrader(course.root, "export", env=env)
    exported = {(r["assignment"], r["student_id"]): r for r in csv_rows(course.root / "grades.csv")}
    assert float(exported["tiny", "dee"]["late_submission_penalty"]) == 3.0
    assert float(exported["tiny", "dee"]["score"]) == 0.0
    assert float(exported["tiny", "bob"]["score"]) == 2.5 and float(exported["tiny", "cy"]["score"]) == 2.0
    assert float(exported["welcome-02", "ada"]["score"]) == 11.0
    nbgrader(course.root, "export", "--exporter=jaxcourse.export.CanvasExport", env=env)
    canvas = list(csv.reader((course.grades / "canvas.csv").open()))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "tiny", "welcome-02"]
    assert canvas[1] == ["    Points Possible", "", "", "", "", "3", "11"]
    assert canvas[2:] == [[s, "", "", s, "", score, "11"] for s, score in
                          (("ada", "3"), ("bob", "2.5"), ("cy", "2"), ("dee", "0"))]
    nbgrader(course.root, "export", "--exporter=jaxcourse.export.LmsExport", env=env)
    lms = csv_rows(course.grades / "lms.csv")
    assert [(r["student_id"], r["tiny"], r["welcome-02"], r["total"], r["max_total"]) for r in lms] == [
        ("ada", "3", "11", "14", "14"), ("bob", "2.5", "11", "13.5", "14"), ("cy", "2", "11", "13", "14"),
        ("dee", "0", "11", "11", "14")]

    # nbgrader's generate_feedback (and the formgrader's button), from autograded/, shows no hidden test.
    assert nbgrader_api(course).generate_feedback("tiny", "ada")["success"]
    nbgrader(course.root, "generate_feedback", "tiny", "--force", env=env)
    for student in answers:
        generated = (course.feedback / student / "tiny" / "tiny.html").read_text()
        assert "sums-test" in generated and not [line for line in secrets_ if line in generated], student
        assert (course.feedback / student / "tiny" / "submission_secret.txt").is_file()
