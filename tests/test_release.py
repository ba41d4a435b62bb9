"""release/ is generated from source/, committed, and leaks nothing a student must not see."""
import json
import re

import nbformat
import pytest

from conftest import LESSONS, REPO
from jaxcourse.course import Course
from jaxcourse.release import leaks, release

SOURCE = Course.at(REPO)


def normalized(path):
    return json.loads(json.dumps(nbformat.read(path, as_version=4), sort_keys=True))


def test_there_are_lessons():
    assert {"welcome-01", "welcome-02"} <= set(LESSONS)


def test_release_matches_a_fresh_regeneration(tmp_path):
    """Drift check: `jaxcourse release` must have been run and committed after every source edit."""
    course = Course.at(tmp_path)
    for lesson in LESSONS:
        (course.source / lesson).mkdir(parents=True)
        (course.source / lesson / f"{lesson}.ipynb").write_bytes(SOURCE.lesson_notebook(lesson).read_bytes())
    release(course)
    committed = sorted(p.relative_to(SOURCE.release) for p in SOURCE.release.rglob("*") if p.is_file())
    regenerated = sorted(p.relative_to(course.release) for p in course.release.rglob("*") if p.is_file())
    assert committed == regenerated, "release/ has files that source/ does not generate (run `make release`)"
    for relative in committed:
        assert normalized(SOURCE.release / relative) == normalized(course.release / relative), \
            f"release/{relative} drifted from source/ (run `make release`)"


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_hides_solutions_hidden_tests_and_outputs(lesson):
    source = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    released = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    assert leaks(source, released) == []
    assert any(c.metadata.get("nbgrader", {}).get("grade") for c in released.cells)


def test_leak_check_catches_a_planted_solution_and_hidden_test():
    lesson = LESSONS[0]
    source = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    planted = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    solution = next(c for c in source.cells if c.metadata.get("nbgrader", {}).get("solution"))
    test = next(c for c in source.cells if "BEGIN HIDDEN TESTS" in c.source)
    for cell in planted.cells:
        if cell.get("id") == solution.id:
            cell.source = solution.source.replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", "")
            cell.outputs = [nbformat.v4.new_output("stream", text="42\n")]
        if cell.get("id") == test.id:
            cell.source = test.source
    problems = "\n".join(leaks(source, planted))
    assert "hidden line" in problems
    assert "grader_check" in problems or "HIDDEN TESTS" in problems
    assert "kept its outputs" in problems


@pytest.mark.parametrize("lesson", LESSONS)
def test_source_notebook_is_clean(lesson):
    nb = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    ids = [cell.get("id") for cell in nb.cells]
    assert len(ids) == len(set(ids)) and all(ids), "cell ids must be present and unique"
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        assert cell.execution_count is None, f"{cell.id}: execution count left in source"
        if "figure" not in cell.metadata.get("tags", []):
            assert cell.outputs == [], f"{cell.id}: stray outputs in source (run `jaxcourse clean-source`)"
    figures = [c for c in nb.cells if "figure" in c.metadata.get("tags", [])]
    assert figures and all(any("image/png" in o.get("data", {}) for o in c.outputs) for c in figures), \
        "every lesson records at least one figure output"


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_runs_without_this_repository(lesson):
    """Releases must work in Colab: no imports of jaxcourse, JAX_PLATFORMS only as a default."""
    nb = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not re.search(r"^\s*(import|from)\s+jaxcourse", code, re.M)
    forced = re.search(r"""environ\[\s*["']JAX_PLATFORMS["']\s*\]\s*=(?!=)|putenv\(\s*["']JAX_PLATFORMS"""
                       r"""|environ\.update\([^)]*JAX_PLATFORMS""", code)
    assert forced is None, f"set JAX_PLATFORMS only with os.environ.setdefault: {forced and forced.group(0)}"
