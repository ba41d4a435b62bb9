"""The grading contract: CSV, gradebook, receipts, platforms and the CLI, on the fixture lesson."""
import argparse
import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import FIXTURES, REPO, fresh_tiny, grade, release_nb, submit_solution
from jaxcourse import inprocess
from jaxcourse.authoring import fabricate
from jaxcourse.cli import main, parser
from jaxcourse.course import Course
from jaxcourse.grading.expected import cache_path, expected_path
from jaxcourse.grading.report import CSV_COLUMNS, write_lesson_feedback

JAXCOURSE = [sys.executable, "-m", "jaxcourse.cli"]


def run_cli(*args, cwd=None):
    return subprocess.run([*JAXCOURSE, *args], cwd=cwd, capture_output=True, text=True, timeout=900)


def test_one_wrong_answer_loses_exactly_that_cell(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "right")
    (wrong,) = [m for m in fabricate.mutants(course, "tiny") if m.name == "wrong-option"]
    fabricate.submit(course, "wrong", "tiny", fabricate.solved(course, "tiny", release_nb(course, "tiny"), wrong))
    rows = grade(course, "tiny")
    right = {r["grade_id"]: r for r in rows["right"]}
    wrong_rows = {r["grade_id"]: r for r in rows["wrong"]}
    assert right["checkpoint-test"]["points"] == "1" and right["sums-test"]["points"] == "2"
    assert wrong_rows["checkpoint-test"]["status"] == "failed" and wrong_rows["checkpoint-test"]["points"] == "0"
    assert wrong_rows["sums-test"] == {**right["sums-test"], "student_id": "wrong"}


def test_csv_contract_receipt_and_autograded_metadata(tmp_path):
    course = fresh_tiny(tmp_path)

    def noisy(nb):  # warnings on stderr, as JAX and absl print, must not cost a correct answer
        nb.cells.insert(2, nbformat.v4.new_code_cell(
            "import logging, sys, warnings\nwarnings.warn('a noisy library')\n"
            "print('E0000 00:00:1 cpu_aot_loader.cc] machine features differ', file=sys.stderr)\n"
            "logging.getLogger('absl').warning('absl says hello')"))

    submit_solution(course, "ada", edit=noisy)
    rows = grade(course, "tiny")
    assert [r["status"] for r in rows["ada"]] == ["ok", "ok"]
    with open(course.grades / "tiny.csv", newline="") as handle:
        reader = csv.DictReader(handle)
        assert reader.fieldnames == CSV_COLUMNS
        rows = list(reader)
    assert {r["grade_id"] for r in rows} == {"sums-test", "checkpoint-test"}
    assert all(r["platform"] == "cpu" for r in rows)
    autograded = nbformat.read(course.autograded / "ada" / "tiny" / "tiny.ipynb", as_version=4)
    receipt = autograded.metadata["jaxcourse"]["receipt"]
    assert receipt["backend"] == "cpu" and receipt["device_count"] >= 1
    assert receipt["jax"] == "0.9.2" and receipt["jaxlib"] == "0.9.2" and receipt["python"].startswith("3.")
    assert not course.feedback.exists(), "grading leaves the feedback pages to `jaxcourse feedback`"
    assert write_lesson_feedback(course, "tiny") == ([course.feedback / "ada" / "tiny" / "tiny.html"], [])
    assert "points: ok" in (course.feedback / "ada" / "tiny" / "tiny.html").read_text()
    with open(course.submitted / "ada" / "tiny" / "tiny.ipynb", "a") as resubmitted:
        resubmitted.write("\n")
    assert write_lesson_feedback(course, "tiny") == ([], ["ada: resubmitted since grading; grade again"])


def test_a_submission_that_misreports_its_platform_is_a_mismatch(tmp_path):
    course = fresh_tiny(tmp_path)

    def lie(nb):
        nb.cells.insert(2, nbformat.v4.new_code_cell("import jax\njax.default_backend = lambda: 'tpu'"))

    submit_solution(course, "liar", edit=lie)
    submit_solution(course, "honest")
    result = run_cli("grade", "tiny", "--course-dir", str(course.root))
    assert result.returncode == 1, result.stderr
    assert "platform-mismatch" in result.stderr
    with open(course.grades / "tiny.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    liar = [r for r in rows if r["student_id"] == "liar"]
    assert liar and all(r["status"] == "platform-mismatch" and r["points"] == "0" for r in liar)
    assert all(r["status"] == "ok" for r in rows if r["student_id"] == "honest")


def test_gpu_on_a_cpu_machine_fails_fast_and_grades_nothing(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "ada")
    result = run_cli("grade", "tiny", "--platform", "gpu", "--course-dir", str(course.root))
    assert result.returncode == 2
    assert "--platform gpu was requested, but JAX cannot use it" in result.stderr
    assert "Nothing was graded" in result.stderr
    assert not (course.grades / "tiny.csv").exists()
    assert not (course.autograded / "ada").exists()


def test_stored_expected_values_do_not_stand_in_for_the_platform_check(tmp_path):
    """Without a fresh solution run, nothing but the preflight would notice a missing platform."""
    course = fresh_tiny(tmp_path)
    shutil.copy(expected_path(course, "tiny", "cpu"), expected_path(course, "tiny", "gpu"))
    shutil.copytree(cache_path(course, "tiny", "cpu"), cache_path(course, "tiny", "gpu"))
    submit_solution(course, "ada")
    result = run_cli("grade", "tiny", "--platform", "gpu", "--course-dir", str(course.root))
    assert result.returncode == 2, result.stderr
    assert "--platform gpu was requested, but JAX cannot use it" in result.stderr
    assert not (course.grades / "tiny.csv").exists()
    assert not (course.autograded / "ada").exists()


def test_unknown_lesson_is_an_error(tmp_path):
    course = fresh_tiny(tmp_path)
    result = run_cli("grade", "no-such-lesson", "--course-dir", str(course.root))
    assert result.returncode == 2 and result.stderr == f"error: no lesson 'no-such-lesson' in {course.source}: " \
        "the lessons are tiny\n"


@pytest.mark.parametrize("command", ["release", "grade", "feedback", "report", "check-lesson", "check-source",
                                     "record-figures", "clean-source"])
def test_a_mistyped_lesson_gets_the_same_error_and_a_suggestion_everywhere(tiny, command, capsys):
    assert main([command, "tinny", "--course-dir", str(tiny.root)]) == 2
    assert capsys.readouterr().err == f"error: no lesson 'tinny' in {tiny.source}: did you mean 'tiny'?\n"


@pytest.mark.fast
def test_every_option_has_help_and_there_is_a_version():
    top = parser()
    commands = next(a for a in top._actions if isinstance(a, argparse._SubParsersAction)).choices
    parsers = {"jaxcourse": top, "python -m jaxcourse.inprocess": inprocess.parser(), **commands}
    undocumented = [f"{name} {action.dest}" for name, sub in parsers.items()
                    for action in sub._actions
                    if not isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)) and not action.help]
    assert undocumented == []
    assert {"release", "grade", "feedback", "report", "check-lesson"} <= set(commands)
    done = subprocess.run([sys.executable, "-m", "jaxcourse.cli", "--version"], capture_output=True, text=True)
    assert done.returncode == 0 and re.fullmatch(r"jaxcourse \d+\.\d+\.\d+\n", done.stdout), done


def test_nbgrader_export_agrees_with_the_csv(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "ada")
    fabricate.submit(course, "bo", "tiny", release_nb(course, "tiny"))
    rows = grade(course, "tiny")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["nbgrader", "export", "--to", "export.csv"], cwd=course.root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with open(course.root / "export.csv", newline="") as handle:
        exported = {(r["assignment"], r["student_id"]): float(r["raw_score"]) for r in csv.DictReader(handle)}
    for student, student_rows in rows.items():
        assert exported[("tiny", student)] == sum(float(r["points"]) for r in student_rows)
    assert exported[("tiny", "ada")] == 3 and exported[("tiny", "bo")] == 0


# nbgrader may load only once a sandbox has started (or after a minute, failing the import).
NBGRADER_AFTER_A_SANDBOX = """
import sys, threading
from jaxcourse.run import execute

started = threading.Event()
start = execute.Sandbox.__init__


def starting(self, spec):
    started.set()
    start(self, spec)


class HoldNbgrader:
    def find_spec(self, name, path=None, target=None):
        if name == "nbgrader" and not started.wait(60):
            raise ImportError("nbgrader was imported before any sandbox started")
        return None


execute.Sandbox.__init__ = starting
sys.meta_path.insert(0, HoldNbgrader())
from jaxcourse.cli import main

sys.exit(main(sys.argv[1:]))
"""


def test_grade_starts_the_solution_run_before_it_imports_nbgrader(tmp_path):
    """`jaxcourse grade` boots the instructor's solution run first; importing nbgrader, syncing
    the gradebook and reading the submissions overlap it (grading/start.py)."""
    course = fresh_tiny(tmp_path)
    submit_solution(course, "ada")
    expected_path(course, "tiny", "cpu").unlink()  # the fresh course's values: the solution runs again
    done = subprocess.run([sys.executable, "-c", NBGRADER_AFTER_A_SANDBOX, "grade", "tiny", "--quiet",
                           "--course-dir", str(course.root)], capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(course.grades / "tiny.csv", newline="") as handle:
        assert {(r["student_id"], r["status"]) for r in csv.DictReader(handle)} == {("ada", "ok")}


def test_grading_a_lesson_nobody_submitted_says_so_and_leaves_the_gradebook_alone(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "ada")
    grade(course, "tiny")
    later = course.source / "later"
    later.mkdir()
    shutil.copy(course.lesson_notebook("tiny"), later / "later.ipynb")
    result = run_cli("grade", "later", "--course-dir", str(course.root))
    assert result.returncode == 2 and result.stderr.startswith("error: no submissions of later: no folder "), result
    assert "Nothing was graded and the gradebook is unchanged" in result.stderr
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["nbgrader", "export"], cwd=course.root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    with open(course.root / "grades.csv", newline="") as handle:
        assert [(r["assignment"], r["student_id"]) for r in csv.DictReader(handle)] == [("tiny", "ada")]
    assert not (course.grades / "later.csv").exists()


def test_git_ignores_the_student_data_that_grading_and_nbgrader_export_write(tmp_path):
    """The course's .gitignore, in a fresh repository: after a graded lesson, `nbgrader export`
    and the gradebook backup of the mid-term procedure, only course files are left to add."""
    course = fresh_tiny(tmp_path)
    submit_solution(course, "ada")
    assert run_cli("grade", "tiny", "--quiet", "--course-dir", str(course.root)).returncode == 0
    assert main(["feedback", "tiny", "--course-dir", str(course.root)]) == 0
    assert main(["report", "tiny", "--course-dir", str(course.root)]) == 0
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(["nbgrader", "export"], cwd=course.root, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and (course.root / "grades.csv").is_file(), done.stderr
    shutil.copy(course.gradebook, course.root / "gradebook-before-tiny.db")
    shutil.copy(course.grades / "tiny.csv", course.root / "tiny-before.csv")
    (course.root / "downloaded" / "tiny" / "extracted").mkdir(parents=True)  # nbgrader zip_collect's folders
    (course.root / "downloaded" / "tiny" / "extracted" / "ada_tiny.ipynb").write_text("{}")
    shutil.copy(REPO / ".gitignore", course.root)
    subprocess.run(["git", "init", "-q"], cwd=course.root, check=True)
    listed = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=course.root,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    tops = {line[3:].split("/")[0] for line in listed}
    assert tops <= {".gitignore", "source", "release", "exercises", "nbgrader_config.py"}, listed


def test_demo_runs_end_to_end(tmp_path):
    result = run_cli("demo", "--course-dir", str(tmp_path / "demo"), "--source-from", str(FIXTURES))
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    assert "student-correct" in out and "student-one-wrong" in out and "student-untouched" in out
    assert "3/3" in out and "0/3" in out
    assert str(tmp_path / "demo" / "grades") in out
    assert (tmp_path / "demo" / "grades" / "tiny.csv").is_file()
    assert (tmp_path / "demo" / "feedback" / "student-correct" / "tiny" / "tiny.html").is_file()
    assert (tmp_path / "demo" / "reports" / "tiny" / "index.html").is_file() and "class report:" in out
    again = run_cli("demo", "--course-dir", str(tmp_path / "demo"), "--source-from", str(FIXTURES))
    assert again.returncode == 0, "the demo must be repeatable"
    refuse = run_cli("demo", "--course-dir", str(FIXTURES))
    assert refuse.returncode == 2 and "not a demo course folder" in refuse.stderr
    assert "a wrong student's feedback page:" in out


@pytest.mark.fast
def test_demo_grades_course_tomls_demo_lessons_unless_told_all(tmp_path, monkeypatch, capsys):
    """`make demo` takes course.toml's [demo] lessons, `make demo-all` every lesson; the release is
    the first step that reads the choice, so a stub release records it without grading anything."""
    import jaxcourse.authoring.release as releasing
    origin = tmp_path / "origin"
    shutil.copytree(FIXTURES, origin)
    shutil.copytree(origin / "source" / "tiny", origin / "source" / "tiny-2")
    (origin / "source" / "tiny-2" / "tiny.ipynb").rename(origin / "source" / "tiny-2" / "tiny-2.ipynb")
    released = []

    class Chosen(Exception):
        pass

    def note_release(course, lessons):
        released.append(list(lessons))
        raise Chosen
    monkeypatch.setattr(releasing, "release", note_release)
    demo = ["demo", "--course-dir", str(tmp_path / "demo"), "--source-from", str(origin)]
    for toml, extra, expected in [("", [], ["tiny", "tiny-2"]),
                                  ('[demo]\nlessons = ["tiny-2"]\n', [], ["tiny-2"]),
                                  ('[demo]\nlessons = ["tiny-2"]\n', ["--all"], ["tiny", "tiny-2"]),
                                  ('[demo]\nlessons = ["tiny-2"]\n', ["tiny"], ["tiny"])]:
        (origin / "course.toml").write_text(toml)
        with pytest.raises(Chosen):
            main([*demo, *extra])
        assert released.pop() == expected, (toml, extra)
    assert main([*demo, "--all", "tiny"]) == 2 and not released
    (origin / "course.toml").write_text('[demo]\nlessons = "tiny"\n')
    assert main(demo) == 2 and not released
    assert "[demo] lessons must be a list of lesson ids" in capsys.readouterr().err


@pytest.mark.fast
def test_the_repositorys_demo_covers_the_phases_the_readme_promises():
    """A basic lesson, one on several devices, a Pallas kernel and the capstone: few enough to be quick."""
    course = Course.at(REPO)
    demo = course.settings().demo
    infos = [course.info(lesson) for lesson in demo]
    assert 3 <= len(demo) <= 5, demo
    assert min(info.phase for info in infos) == 1
    assert any(info.devices > 1 for info in infos)
    assert any(lesson.startswith("pallas-") for lesson in demo)
    assert any(lesson.startswith("capstone-") for lesson in demo)
