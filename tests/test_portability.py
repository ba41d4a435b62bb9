"""Every release notebook runs with pip packages alone, in a clean venv of one of two flavours.

For each lesson, the Colab setup cell (the first code cell) names what the notebook needs
(`graded_with` and `also_needed`). A clean virtual environment holds only those pip packages plus
ipykernel: nothing from this repository, no nbgrader, no jaxcourse. Its flavour is "pinned"
(requirements-cpu.txt as a constraints file) or "newest" (whatever the registry serves today).
`make test-portability` runs both (PORTABILITY_FLAVOURS=pinned,newest by default); this module is
collected only when PORTABILITY_FLAVOURS is set (tests/conftest.py), and `jaxcourse check-lesson`
runs its pinned flavour for one lesson. `make test` runs every release in Colab's clean venv
instead (tests/test_colab.py), so a registry release cannot turn it red. Each distinct (package
set, flavour) is built once per session, the builds running side by side in the background
while the notebooks execute.

Each release runs with the instructor's solutions filled in, JAX_PLATFORMS=cpu, and nothing may
fail (that the untouched release fails only in its exercises is proven on its graded run, in
tests/test_lessons.py).
"""
from __future__ import annotations

import os
from pathlib import Path

import nbformat
import pytest
from packaging.version import Version

from clean_venvs import (COURSE, KERNEL_PACKAGE, NOT_IN_A_STUDENT_VENV, PINS, CleanVenv, CleanVenvs, check_common,
                         execute, inside_repo, pip_names, release_notebook)
from conftest import LESSONS
from notebook_errors import describe_error, error_of
from jaxcourse.authoring import fabricate
from jaxcourse.course import canonical, read_pins

FLAVOURS = tuple(os.environ.get("PORTABILITY_FLAVOURS", "pinned,newest").split(","))


def wanted_builds(session: pytest.Session) -> list[tuple[tuple[str, ...], str]]:
    """The (package set, flavour) pairs the selected tests of this module need, in test order."""
    wanted = []
    for item in session.items:
        if getattr(item, "path", None) != Path(__file__):
            continue
        params = getattr(getattr(item, "callspec", None), "params", {})
        for lesson in [params["lesson"]] if "lesson" in params else LESSONS:
            try:
                packages = pip_names(release_notebook(lesson))
            except Exception:  # noqa: BLE001 - that lesson's own test reports it
                continue
            for flavour in [params["flavour"]] if "flavour" in params else FLAVOURS:
                if (packages, flavour) not in wanted:
                    wanted.append((packages, flavour))
    return wanted


@pytest.fixture(scope="session")
def venvs(request, tmp_path_factory):
    root = tmp_path_factory.mktemp("portability-venvs")
    assert not inside_repo(root), f"scratch folder {root} is inside the repository"
    wanted = wanted_builds(request.session)
    # Two at a time, in test order: the first tests' venvs come soon, and later builds (downloads
    # overlapping another's unpacking) run behind the first notebooks.
    builds = CleanVenvs(root, workers=2, builders={"pinned": {"constraints": PINS}, "newest": {}})
    for packages, flavour in wanted:
        builds.start(packages, flavour)
    yield builds
    builds.pool.shutdown(wait=True, cancel_futures=True)


def lesson_venv(venvs: CleanVenvs, lesson: str, flavour: str) -> tuple[nbformat.NotebookNode, CleanVenv]:
    nb = release_notebook(lesson)
    return nb, venvs.get(pip_names(nb), flavour)


# ---------------------------------------------------------------------------------------------
# Tests

@pytest.mark.parametrize("flavour", FLAVOURS)
@pytest.mark.parametrize("lesson", LESSONS)
def test_release_with_solutions_runs_clean(lesson, flavour, venvs, tmp_path):
    """The release with the instructor's solutions typed in: every cell, visible tests included, passes."""
    nb, venv = lesson_venv(venvs, lesson, flavour)
    answers = fabricate.solution_sources(nbformat.read(COURSE.lesson_notebook(lesson), as_version=4))
    unanswered = [cell.metadata.nbgrader.get("grade_id") for cell in nb.cells
                  if cell.metadata.get("nbgrader", {}).get("solution")
                  and cell.metadata.nbgrader.get("grade_id") not in answers]
    assert not unanswered, f"{lesson}: release solution cells with no source solution: {unanswered}"
    ran = execute(fabricate.fill(nb, answers), venv, tmp_path)
    problems = check_common(ran, venv, tmp_path)
    problems += [describe_error(cell, error) for cell in ran.cells
                 if cell.cell_type == "code" and (error := error_of(cell)) is not None]
    assert not problems, f"{lesson} ({flavour}: {venv.describe()}):\n" + "\n\n".join(problems)


def test_clean_venvs_hold_pip_packages_only(venvs, capsys):
    """Every package set in each flavour run; pinned means the freeze's versions; newest jax is not older."""
    sets = sorted({pip_names(release_notebook(lesson)) for lesson in LESSONS})
    pinned_versions = read_pins(PINS)
    lines, problems = [], []
    for packages in sets:
        built = {flavour: venvs.get(packages, flavour) for flavour in FLAVOURS}
        for venv in built.values():
            lines.append(venv.describe())
            missing = [p for p in (*packages, KERNEL_PACKAGE) if canonical(p) not in venv.versions]
            leaked = [name for name in NOT_IN_A_STUDENT_VENV if name in venv.versions]
            if missing or leaked:
                problems.append(f"{venv.kernel_name}: missing {missing}, must not hold {leaked}")
        if "pinned" in built:
            off_pin = {name: (version, pinned_versions[name]) for name, version in built["pinned"].versions.items()
                       if name in pinned_versions and version != pinned_versions[name]}
            if off_pin:
                problems.append(f"{built['pinned'].kernel_name}: not at the pinned version (got, pinned): {off_pin}")
        if {"pinned", "newest"} <= set(built) and "jax" in built["pinned"].versions:
            pinned_jax, newest_jax = built["pinned"].versions["jax"], built["newest"].versions["jax"]
            if Version(newest_jax) < Version(pinned_jax):
                problems.append(f"[{' '.join(packages)}]: newest jax {newest_jax} is older than pinned {pinned_jax}")
    with capsys.disabled():
        print("\nclean venvs:\n  " + "\n  ".join(lines))
    assert not problems, "\n".join(problems)
