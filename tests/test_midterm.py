"""nbgrader's own commands on the course, and changing a lesson once students have submitted it.

`nbgrader generate_assignment` and the formgrader's "Generate" button run the course's
preprocessors from the repository's nbgrader_config.py. A release that nbgrader refuses says
why, keeps the last release, and the documented mid-term procedure regrades everyone.
"""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import REPO, fresh_tiny, grade, release_nb, submit_solution
from jaxcourse.authoring import fabricate
from jaxcourse.cli import main

NBGRADER = Path(sys.executable).with_name("nbgrader")
# What the formgrader's "Generate" button runs: an NbGraderAPI whose config is loaded from the
# course's nbgrader_config.py, with CourseDirectory.root left unset.
FORMGRADER_GENERATE = """
import sys
from nbgrader.apps import NbGraderAPI
from nbgrader.apps.baseapp import NbGrader
from nbgrader.coursedir import CourseDirectory
app = NbGrader()
app.load_config_file()
result = NbGraderAPI(CourseDirectory(parent=app), parent=app).generate_assignment(sys.argv[1])
print(result.get("error") or "", file=sys.stderr)
sys.exit(0 if result["success"] else 1)
"""


def normalized(path):
    return json.loads(json.dumps(nbformat.read(path, as_version=4), sort_keys=True))


@pytest.fixture
def stock_course(tmp_path):
    """welcome-02 (a figure and an example with recorded outputs) in a course folder holding the
    repository's nbgrader_config.py and a course.toml that names a published repository."""
    root = tmp_path / "course"
    shutil.copytree(REPO / "source" / "welcome-02", root / "source" / "welcome-02")
    shutil.copy(REPO / "nbgrader_config.py", root)
    (root / "course.toml").write_text('[publish]\nrepository = "example-org/jax-course"\n')
    return root


@pytest.mark.parametrize("command", ["nbgrader generate_assignment", "formgrader Generate"])
def test_nbgrader_generates_what_jaxcourse_releases(stock_course, command):
    argv = ([str(NBGRADER), "generate_assignment", "welcome-02"] if command.startswith("nbgrader")
            else [sys.executable, "-c", FORMGRADER_GENERATE, "welcome-02"])
    done = subprocess.run(argv, cwd=stock_course, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    released = stock_course / "release" / "welcome-02" / "welcome-02.ipynb"
    nb = nbformat.read(released, as_version=4)
    assert "example-org/jax-course/blob/main/release/welcome-02" in nb.cells[1].source  # course.toml was read
    recorded = [cell for cell in nb.cells if cell.cell_type == "code" and cell.outputs]
    assert {tag for cell in recorded for tag in cell.metadata.tags} == {"figure", "example"}
    by_nbgrader = normalized(released)
    assert main(["release", "welcome-02", "--course-dir", str(stock_course)]) == 0
    assert normalized(released) == by_nbgrader


def edit_source(course, edit):
    path = course.lesson_notebook("tiny")
    nb = nbformat.read(path, as_version=4)
    edit(nb)
    nbformat.write(nb, path)


def cell(nb, cell_id):
    return next(c for c in nb.cells if c.id == cell_id)


def test_a_lesson_changed_mid_term(tmp_path, capsys):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "alice")
    assert [r["status"] for r in grade(course, "tiny")["alice"]] == ["ok", "ok"]
    released = (course.release / "tiny" / "tiny.ipynb").read_bytes()

    # A hidden test fixed inside its cell: nbgrader takes it with submissions present, and
    # grading again reruns everyone against it.
    def harder_hidden_test(nb):
        test = cell(nb, "sums-test")
        test.source = test.source.replace("### END HIDDEN TESTS",
                                          'grader_check("sums of a 3x1 table", column_sums(jnp.ones((3, 1))))\n'
                                          "### END HIDDEN TESTS")
    edit_source(course, harder_hidden_test)
    assert main(["release", "tiny", "--course-dir", str(course.root)]) == 0
    logged = []
    rows = grade(course, "tiny", log=logged.append)["alice"]
    assert [r["detail"] for r in rows][0] == "2 hidden check(s) passed" and not any("kept" in l for l in logged)

    # A test cell renamed and an exercise added: nbgrader refuses, says why, and the release stays.
    def rename_and_add(nb):
        cell(nb, "checkpoint-test").metadata.nbgrader.grade_id = "checkpoint-check"
        at = nb.cells.index(cell(nb, "checkpoint-test")) + 1
        solution = nbformat.v4.new_code_cell("def triple(x):\n    ### BEGIN SOLUTION\n    return 3 * x\n"
                                             "    ### END SOLUTION", id="triple-solution")
        solution.metadata.nbgrader = {"grade": False, "grade_id": "triple-solution", "locked": False,
                                      "schema_version": 3, "solution": True}
        test = nbformat.v4.new_code_cell('assert triple(1) == 3\n### BEGIN HIDDEN TESTS\n'
                                         'grader_check("triple", triple(7))\n### END HIDDEN TESTS', id="triple-test")
        test.metadata.nbgrader = {"grade": True, "grade_id": "triple-test", "locked": True, "points": 1,
                                  "schema_version": 3, "solution": False}
        nb.cells[at:at] = [solution, test]
    edit_source(course, rename_and_add)
    capsys.readouterr()
    assert main(["release", "tiny", "--course-dir", str(course.root)]) == 2
    error = capsys.readouterr().err
    assert "RuntimeError: Cannot add or remove cells for notebook 'tiny'" in error, error
    assert "nbgrader db assignment remove tiny --force" in error and "release/tiny/ was left as it was" in error
    assert (course.release / "tiny" / "tiny.ipynb").read_bytes() == released

    # The documented procedure: remove the lesson from the gradebook, release, grade again.
    done = subprocess.run([str(NBGRADER), "db", "assignment", "remove", "tiny", "--force"], cwd=course.root,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert main(["release", "tiny", "--course-dir", str(course.root)]) == 0
    # bob works from the new release but deletes the column-sums exercise, solution and test cells
    new = release_nb(course, "tiny")
    answered = fabricate.solved(course, "tiny", new)
    answered.cells = [c for c in answered.cells if c.id not in ("sums-solution", "sums-test")]
    fabricate.submit(course, "bob", "tiny", answered)
    # carol answers everything but deletes one test cell: its visible asserts cannot be dodged
    answered = fabricate.solved(course, "tiny", new)
    answered.cells = [c for c in answered.cells if c.id != "checkpoint-test"]
    fabricate.submit(course, "carol", "tiny", answered)
    rows = {student: {r["grade_id"]: r for r in student_rows} for student, student_rows in grade(course, "tiny").items()}
    restored = "this test cell was missing from the submission and was restored from the lesson"
    alice, bob = rows["alice"], rows["bob"]  # alice's submission predates the change
    assert (alice["sums-test"]["status"], alice["sums-test"]["points"]) == ("ok", "2")
    assert (alice["checkpoint-check"]["status"], alice["checkpoint-check"]["points"]) == ("ok", "1")
    assert restored in alice["checkpoint-check"]["detail"] and restored not in alice["sums-test"]["detail"]
    assert alice["triple-test"]["status"] == "error" and alice["triple-test"]["detail"].startswith("NotImplementedError")
    assert bob["sums-test"]["status"] == "error" and bob["sums-test"]["detail"].startswith("NotImplementedError")
    assert restored in bob["sums-test"]["detail"]
    assert [bob[g]["status"] for g in ("checkpoint-check", "triple-test")] == ["ok", "ok"]
    carol = rows["carol"]
    assert [carol[g]["points"] for g in ("sums-test", "checkpoint-check", "triple-test")] == ["2", "1", "1"]
    assert [restored in carol[g]["detail"] for g in ("sums-test", "checkpoint-check", "triple-test")] == [
        False, True, False]
