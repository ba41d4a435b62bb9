"""Every lesson, graded by the real pipeline: every mutant is rejected by its hidden tests (all
mutants of a lesson in one sandboxed kernel, whose solution part is also the trusted run); then
the solution earns full marks, and the untouched release earns nothing and fails only in its
exercises. That one shared kernel judges a mutant as a fresh graded run does is proven once,
on the first lesson."""
from typing import NamedTuple

import nbformat
import pytest

from conftest import LESSONS, grade, lesson_course, release_nb
from jaxcourse.authoring import fabricate
from jaxcourse.grading.grade import Options
from jaxcourse.authoring.mutation import check_mutants, mutant_spans
from jaxcourse.grading.record import executed_path
from notebook_errors import unfinished_release_problems


class Graded(NamedTuple):
    lesson: str
    course: object
    mutants: list
    rows: dict
    verdicts: list
    untouched: nbformat.NotebookNode


def graded_lesson(lesson: str, tmp_path_factory) -> Graded:
    course = lesson_course(tmp_path_factory.mktemp(lesson), lesson)
    released = release_nb(course, lesson)
    found = fabricate.mutants(course, lesson)
    # The product's defaults: check_mutants keeps the expected values and fills the compilation cache
    # from the visible code; both graded runs then read it (6 mid-sized lessons: 138 -> 123 s, the
    # four heaviest 331 -> 278 s, against no cache at all).
    verdicts = check_mutants(course, lesson, Options(log=lambda *_: None))
    fabricate.submit(course, "solution", lesson, fabricate.solved(course, lesson, released))
    fabricate.submit(course, "untouched", lesson, released)
    rows = grade(course, lesson)
    untouched = nbformat.read(executed_path(course, lesson, "untouched", lesson), as_version=4)
    return Graded(lesson, course, found, rows, verdicts, untouched)


_GRADED: dict[str, tuple] = {}


@pytest.fixture(params=LESSONS)
def graded(request, tmp_path_factory):
    """Each lesson graded once per session (a failure too), however pytest or xdist orders the tests."""
    lesson = request.param
    if lesson not in _GRADED:
        try:
            _GRADED[lesson] = (graded_lesson(lesson, tmp_path_factory), None)
        except Exception as exc:  # noqa: BLE001 - every test of the lesson reports it, without a re-run
            _GRADED[lesson] = (None, exc)
    result, error = _GRADED[lesson]
    if error is not None:
        raise error
    return result


def test_solution_scores_full_marks(graded):
    for row in graded.rows["solution"]:
        assert row["status"] == "ok", row
        assert float(row["points"]) == float(row["max_points"]) > 0
        assert row["platform"] == "cpu"


def test_untouched_release_scores_zero(graded):
    for row in graded.rows["untouched"]:
        assert row["status"] in ("failed", "error"), row
        assert float(row["points"]) == 0
        assert row["detail"], "a student needs a reason"


def test_untouched_release_fails_only_in_its_exercises(graded):
    """The release as a student opens it: everything but the unfinished exercises runs."""
    assert all(cell.get("execution_count") for cell in graded.untouched.cells if cell.cell_type == "code"), \
        f"{graded.lesson}: a cell of the untouched release never ran"
    problems = unfinished_release_problems(graded.untouched)
    assert not problems, f"{graded.lesson}:\n" + "\n\n".join(problems)


def test_every_graded_cell_has_a_mutant(graded):
    covered = {grade_id for mutant in graded.mutants for grade_id in mutant.fails}
    assert {row["grade_id"] for row in graded.rows["solution"]} <= covered, f"{graded.lesson}: add mutants for the rest"


def test_every_mutant_is_rejected_by_its_hidden_tests(graded):
    assert [v.mutant.name for v in graded.verdicts] == [m.name for m in graded.mutants]
    problems = [problem for verdict in graded.verdicts for problem in verdict.problems()]
    assert not problems, f"{graded.lesson}:\n" + "\n".join(problems)


@pytest.mark.parametrize("graded", LESSONS[:1], indirect=True)  # beside that lesson's tests, on its worker
def test_the_shared_kernel_judges_mutants_as_fresh_graded_runs_do(graded):
    """The last mutant of each solution cell ran after its group's other mutants, with only
    their restores (no test cells) between them: graded alone, it loses exactly its cells."""
    lesson, course, verdicts = graded.lesson, graded.course, graded.verdicts
    released = release_nb(course, lesson)
    source = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    spans = mutant_spans(source, [v.mutant for v in verdicts])
    last = {}
    for _, verdict in sorted(zip(spans, verdicts), key=lambda pair: pair[0]):  # the order they ran in
        last[verdict.mutant.replaces] = verdict
    assert len(last) >= 3 and len(last) < len(verdicts), f"{lesson}: too few groups of mutants to prove this"
    for verdict in last.values():
        fabricate.submit(course, verdict.mutant.name, lesson, fabricate.solved(course, lesson, released, verdict.mutant))
    rows = grade(course, lesson)
    for verdict in last.values():
        assert not verdict.problems(), verdict.problems()
        for row in rows[verdict.mutant.name]:
            if row["grade_id"] in verdict.mutant.fails:
                assert row["status"] in ("failed", "error") and float(row["points"]) == 0, (verdict.mutant.name, row)
            else:
                assert row["status"] == "ok" and float(row["points"]) == float(row["max_points"]), (verdict.mutant.name, row)


def _cell(kind: str, error: str | None, count: int) -> nbformat.NotebookNode:
    """A code cell that ran as execution `count`; `kind` is solution, test or plain."""
    cell = nbformat.v4.new_code_cell("...")
    cell.execution_count = count
    cell.metadata.nbgrader = {"solution": kind == "solution", "grade": kind == "test", "grade_id": f"c{count}"}
    if error:
        frame = "\x1b[0;32mCell In[1], line 2\x1b[0m" if "unfinished" in error else f"Cell In[{count}], line 1"
        cell.outputs = [nbformat.v4.new_output("error", ename=error.split(":")[0], evalue="", traceback=[frame])]
    return cell


@pytest.mark.fast
@pytest.mark.parametrize("cells, problems", [
    ([("solution", "NotImplementedError", 1), ("test", "AssertionError", 2), ("plain", None, 3)], 0),
    ([("solution", "NotImplementedError", 1), ("plain", "NameError", 2)], 1),               # an example broke
    ([("solution", "TypeError", 1)], 1),                                                    # a placeholder that is not one
    ([("solution", "NotImplementedError", 1), ("plain", "NotImplementedError: unfinished", 2)], 0),  # calls the exercise
    ([("solution", "NotImplementedError", 1), ("plain", "NotImplementedError", 2)], 1),     # raised by the example itself
])
def test_the_unfinished_release_check_tells_exercises_from_examples(cells, problems):
    nb = nbformat.v4.new_notebook(cells=[_cell(*spec) for spec in cells])
    assert len(unfinished_release_problems(nb)) == problems
