"""Every lesson, graded by the real pipeline: the solution earns full marks, the untouched
release earns nothing, and every mutant loses exactly the cells it names."""
import pytest

from conftest import LESSONS, REPO, grade, make_course, release_nb
from jaxcourse import fabricate
from jaxcourse.course import Course


@pytest.fixture(scope="module", params=LESSONS)
def graded(request, tmp_path_factory):
    lesson = request.param
    course = make_course(tmp_path_factory.mktemp(lesson), Course.at(REPO), [lesson])
    released = release_nb(course, lesson)
    fabricate.submit(course, "solution", lesson, fabricate.solved(course, lesson, released))
    fabricate.submit(course, "untouched", lesson, released)
    found = fabricate.mutants(course, lesson)
    for mutant in found:
        fabricate.submit(course, f"mutant-{mutant.name}", lesson, fabricate.solved(course, lesson, released, mutant))
    return lesson, found, grade(course, lesson)


def test_solution_scores_full_marks(graded):
    _, _, rows = graded
    for row in rows["solution"]:
        assert row["status"] == "ok", row
        assert float(row["points"]) == float(row["max_points"]) > 0
        assert row["platform"] == "cpu"


def test_untouched_release_scores_zero(graded):
    _, _, rows = graded
    for row in rows["untouched"]:
        assert row["status"] in ("failed", "error"), row
        assert float(row["points"]) == 0
        assert row["detail"], "a student needs a reason"


def test_every_graded_cell_has_a_mutant(graded):
    lesson, found, rows = graded
    covered = {grade_id for mutant in found for grade_id in mutant.fails}
    assert {row["grade_id"] for row in rows["solution"]} <= covered, f"{lesson}: add mutants for the rest"


def test_each_mutant_loses_exactly_its_cells(graded):
    _, found, rows = graded
    for mutant in found:
        for row in rows[f"mutant-{mutant.name}"]:
            if row["grade_id"] in mutant.fails:
                assert row["status"] in ("failed", "error") and float(row["points"]) == 0, (mutant.name, row)
            else:
                assert row["status"] == "ok" and float(row["points"]) == float(row["max_points"]), (mutant.name, row)
