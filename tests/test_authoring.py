"""Authoring in one place: a scaffolded lesson passes check-lesson with no edit outside its
folder, and the one-kernel mutation check cannot be fooled by a mutant that is really right
or one that kills the kernel."""
import json

import pytest

from jaxcourse.check import check_lesson
from jaxcourse.cli import main
from jaxcourse.course import Course, CourseError
from jaxcourse.grade import Options, grade_lesson
from jaxcourse.mutation import check_mutants
from jaxcourse.scaffold import new_lesson


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
    assert [s.name for s in steps][:2] == ["metadata", "solution passes"]
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
