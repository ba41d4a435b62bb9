"""Every lesson, graded by the real pipeline: the solution earns full marks, the untouched
release earns nothing, a sampled mutant loses exactly the cells it names, and every mutant is
rejected by its hidden tests (all mutants of a lesson in one sandboxed kernel)."""
import pytest

from conftest import LESSONS, REPO, grade, make_course, release_nb
from jaxcourse import fabricate
from jaxcourse.course import Course
from jaxcourse.grade import Options
from jaxcourse.mutation import check_mutants


@pytest.fixture(scope="module", params=LESSONS)
def graded(request, tmp_path_factory):
    lesson = request.param
    course = make_course(tmp_path_factory.mktemp(lesson), Course.at(REPO), [lesson])
    released = release_nb(course, lesson)
    found = fabricate.mutants(course, lesson)
    fabricate.submit(course, "solution", lesson, fabricate.solved(course, lesson, released))
    fabricate.submit(course, "untouched", lesson, released)
    sample = found[0]
    fabricate.submit(course, "sampled-mutant", lesson, fabricate.solved(course, lesson, released, sample))
    # The compilation cache is tested on its own; here it would cost each lesson one more kernel.
    rows = grade(course, lesson, compilation_cache=False)
    verdicts = check_mutants(course, lesson, Options(log=lambda *_: None, compilation_cache=False))
    return lesson, found, sample, rows, verdicts


def test_solution_scores_full_marks(graded):
    _, _, _, rows, _ = graded
    for row in rows["solution"]:
        assert row["status"] == "ok", row
        assert float(row["points"]) == float(row["max_points"]) > 0
        assert row["platform"] == "cpu"


def test_untouched_release_scores_zero(graded):
    _, _, _, rows, _ = graded
    for row in rows["untouched"]:
        assert row["status"] in ("failed", "error"), row
        assert float(row["points"]) == 0
        assert row["detail"], "a student needs a reason"


def test_every_graded_cell_has_a_mutant(graded):
    lesson, found, _, rows, _ = graded
    covered = {grade_id for mutant in found for grade_id in mutant.fails}
    assert {row["grade_id"] for row in rows["solution"]} <= covered, f"{lesson}: add mutants for the rest"


def test_a_sampled_mutant_loses_exactly_its_cells_when_graded(graded):
    _, _, sample, rows, _ = graded
    for row in rows["sampled-mutant"]:
        if row["grade_id"] in sample.fails:
            assert row["status"] in ("failed", "error") and float(row["points"]) == 0, (sample.name, row)
        else:
            assert row["status"] == "ok" and float(row["points"]) == float(row["max_points"]), (sample.name, row)


def test_every_mutant_is_rejected_by_its_hidden_tests(graded):
    lesson, found, _, _, verdicts = graded
    assert [v.mutant.name for v in verdicts] == [m.name for m in found]
    problems = [problem for verdict in verdicts for problem in verdict.problems()]
    assert not problems, f"{lesson}:\n" + "\n".join(problems)
