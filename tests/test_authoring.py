"""Authoring in one place: a scaffolded lesson passes check-lesson with no edit outside its
folder, check-lesson catches what docs/authoring.md forbids and reports each mutant on its own,
and the one-kernel mutation check cannot be fooled by a mutant that is really right or one that
kills the kernel."""
import json

import nbformat
import pytest

from jaxcourse.authoring.check import CHECKS, check_lesson, hidden_asserts, source_problems
from jaxcourse.authoring.mutation import check_mutants
from jaxcourse.authoring.scaffold import new_lesson
from jaxcourse.cli import main
from jaxcourse.course import Course, CourseError
from jaxcourse.grading.grade import Options, grade_lesson


@pytest.fixture(scope="module")
def scaffolded(tmp_path_factory):
    course = Course.at(tmp_path_factory.mktemp("authoring"))
    new_lesson(course, "demo-01", phase=2)
    assert main(["record-figures", "demo-01", "--course-dir", str(course.root)]) == 0
    assert main(["release", "demo-01", "--course-dir", str(course.root)]) == 0
    return course


def test_a_new_lesson_passes_check_lesson_as_scaffolded(scaffolded):
    steps = []
    assert check_lesson(scaffolded, "demo-01", Options(log=lambda *_: None), steps.append), steps
    names = [s.name for s in steps]
    assert names == [name for name, _ in CHECKS if name != "mutants rejected"][:-1] + [
        "mutant checkpoint_wrong_option", "mutant exercise_squares", "portable at the pins"], names
    # a course folder without the test suite has no portability check to run
    assert [s.name for s in steps if s.skipped] == ["portable at the pins"] and "no tests/" in steps[-1].detail
    info = scaffolded.info("demo-01")
    assert (info.chapter, info.phase, info.devices) == (1, 2, 1)


def test_record_figures_draws_what_graded_runs_leave_undrawn(scaffolded):
    recorded = json.loads((scaffolded.source / "demo-01" / "recorded-outputs.json").read_text())
    assert any("image/png" in out.get("data", {}) for outputs in recorded.values() for out in outputs), recorded


def test_check_lesson_reports_drift(scaffolded, tmp_path):
    path = scaffolded.lesson_notebook("demo-01")
    original = path.read_text()
    try:
        path.write_text(original.replace("One paragraph", "A changed paragraph"))
        steps = []
        assert not check_lesson(scaffolded, "demo-01", Options(log=lambda *_: None), steps.append)
        (release,) = [s for s in steps if s.name == "release"]
        assert not release.ok and "release/demo-01/demo-01.ipynb" in release.detail
    finally:
        path.write_text(original)


def test_check_lesson_catches_what_authoring_forbids_and_reports_each_mutant(scaffolded):
    """Stored outputs, an assert among the hidden tests and two unusable mutant headers fail
    their own lines; the lesson's real mutants are still judged; --quick skips the venv."""
    path, mutants = scaffolded.lesson_notebook("demo-01"), scaffolded.source / "demo-01" / "mutants"
    original = path.read_text()
    nb = nbformat.read(path, as_version=4)
    experiment = next(c for c in nb.cells if c.id == "experiment-1")
    experiment.execution_count = 3
    experiment.outputs = [nbformat.v4.new_output("stream", text="[0 2 4]\n")]
    test = next(c for c in nb.cells if c.id == "exercise-test")
    test.source = test.source.replace("### END HIDDEN TESTS", "assert double(3) == 6\n### END HIDDEN TESTS")
    nbformat.write(nb, path)
    (mutants / "no_header.py").write_text("def double(x):\n    return x\n")
    (mutants / "wrong_cell.py").write_text("# replaces: exercise-solution\n# fails: no-such-test\n"
                                           "def double(x):\n    return x\n")
    steps = []
    try:
        assert not check_lesson(scaffolded, "demo-01", Options(log=lambda *_: None), steps.append, quick=True)
    finally:
        path.write_text(original)
        (mutants / "no_header.py").unlink()
        (mutants / "wrong_cell.py").unlink()
    by_name = {s.name: s for s in steps}
    clean = by_name["source notebook clean"]
    assert not clean.ok and "cell experiment-1: stored outputs and an execution count" in clean.detail
    hidden = by_name["hidden tests only export"]
    assert not hidden.ok and "cell exercise-test, line 6: `assert` in the hidden tests" in hidden.detail, hidden
    assert not by_name["mutant no_header"].ok and "needs '# replaces:" in by_name["mutant no_header"].detail
    assert not by_name["mutant wrong_cell"].ok and "no-such-test" in by_name["mutant wrong_cell"].detail
    for name in ("mutant exercise_squares", "mutant checkpoint_wrong_option"):
        assert by_name[name].ok and by_name[name].detail.startswith("rejected by "), by_name[name]
    assert by_name["solution passes"].ok and by_name["mutants cover every graded cell"].ok
    portable = by_name["portable at the pins"]
    assert portable.skipped and portable.detail == "skipped (--quick)"


@pytest.mark.fast
def test_hidden_asserts_are_found_only_inside_hidden_regions():
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("assert f(1) == 2, 'visible'\n### BEGIN HIDDEN TESTS\ngrader_check('a', f(3))\n"
                                  "### END HIDDEN TESTS\nassert True", id="visible-only"),
        nbformat.v4.new_code_cell("with precision():\n    ### BEGIN HIDDEN TESTS\n    grader_check('a', f(3))\n"
                                  "    assert f(3) == 6\n    ### END HIDDEN TESTS", id="indented"),
        nbformat.v4.new_code_cell("### BEGIN HIDDEN TESTS\nassert (f(1) ==\n   2)\n### END HIDDEN TESTS\n"
                                  "### BEGIN HIDDEN TESTS\nx = 1\nassert x\n### END HIDDEN TESTS", id="two"),
        nbformat.v4.new_code_cell("### BEGIN HIDDEN TESTS\n%time grader_check('a', 1)\n### END HIDDEN TESTS",
                                  id="magic"),
    ])
    assert hidden_asserts(nb) == [
        "cell indented, line 4: `assert` in the hidden tests",
        "cell two, line 2: `assert` in the hidden tests", "cell two, line 7: `assert` in the hidden tests",
        "cell magic: not plain Python (invalid syntax, line 2)"]


@pytest.mark.fast
def test_source_problems_name_each_unclean_cell():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1", id="a"), nbformat.v4.new_code_cell("2", id="b"),
                                         nbformat.v4.new_markdown_cell("x", id="c")])
    assert source_problems(nb) == []
    nb.cells[2].id = "a"  # as a file can hold it: nbformat.read would quietly renumber it
    nb.cells[0].execution_count = 1
    nb.cells[1].outputs = [nbformat.v4.new_output("execute_result", data={"text/plain": "2"})]
    assert source_problems(nb) == ["cell a: stored an execution count", "cell b: stored outputs",
                                   "cell a: a missing or repeated cell id"]


def test_a_mutant_that_is_really_right_is_flagged(scaffolded):
    mutants = scaffolded.source / "demo-01" / "mutants"
    (mutants / "zz_actually_right.py").write_text(
        "# replaces: exercise-solution\n# fails: exercise-test\ndef double(x):\n    return jnp.asarray(x) * 2\n")
    try:
        verdicts = {v.mutant.name: v for v in check_mutants(scaffolded, "demo-01", Options(log=lambda *_: None))}
    finally:
        (mutants / "zz_actually_right.py").unlink()
    assert verdicts["exercise_squares"].problems() == []
    assert any("accepted the mutant" in p for p in verdicts["zz_actually_right"].problems())


def test_a_mutant_that_kills_the_kernel_voids_the_verdicts_after_it(scaffolded):
    mutants = scaffolded.source / "demo-01" / "mutants"
    (mutants / "a_kills_kernel.py").write_text(
        "# replaces: exercise-solution\n# fails: exercise-test\nimport os, signal\n"
        "def double(x):\n    os.kill(os.getpid(), signal.SIGKILL)\n")
    try:
        verdicts = {v.mutant.name: v for v in check_mutants(scaffolded, "demo-01", Options(log=lambda *_: None))}
    finally:
        (mutants / "a_kills_kernel.py").unlink()
    assert any("after restoring the solution" in p for p in verdicts["a_kills_kernel"].problems())
    assert verdicts["exercise_squares"].problems()  # never counted as rejected by a dead kernel


def test_new_lesson_refuses_bad_ids_and_existing_folders(scaffolded):
    with pytest.raises(CourseError, match="lowercase"):
        new_lesson(scaffolded, "Bad_Id", phase=1)
    with pytest.raises(CourseError, match="already exists"):
        new_lesson(scaffolded, "demo-01", phase=1)


def test_grading_refuses_a_platform_the_lesson_cannot_use(tmp_path):
    course = Course.at(tmp_path)
    new_lesson(course, "cpu-only", phase=1)
    path = course.lesson_notebook("cpu-only")
    nb = json.loads(path.read_text())
    nb["metadata"]["jaxcourse"]["platforms"] = ["cpu"]
    path.write_text(json.dumps(nb))
    assert course.info("cpu-only").platforms == ("cpu",)
    with pytest.raises(CourseError, match="can be graded on cpu only"):
        grade_lesson(course, "cpu-only", Options(platform="tpu", log=lambda *_: None))
