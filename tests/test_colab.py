"""Every lesson runs, and grades the same, on what Colab actually ships (issue 33).

Colab's published package lists (tests/colab/*-runtime.txt: googlecolab/backend-info at a724079,
2026-08-19) give its CPU, GPU and TPU runtimes jax and jaxlib 0.7.2, flax 0.11.2, optax 0.2.8,
orbax-checkpoint 0.12.4 and numpy 2.1.3, on Python 3.13. Python 3.13 cannot be installed here, so
these venvs hold Colab's versions of what the lessons import on Python 3.11.

Each venv has a stand-in `google.colab` module that the kernel imports at start-up, as Colab's kernel
does, so the release's real setup cell takes its Colab branch: it installs the grader's versions of
the JAX packages with the venv's own pip. Kernels get no JAX_PLATFORMS (Colab sets none): each
lesson's own first cells choose the CPU.
"""
from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from clean_venvs import (COURSE, CleanVenv, build, check_common, execute, installed_versions, kernel_env, pip_names,
                         release_notebook, setup_lists)
from conftest import LESSONS, REPO, grade, lesson_course
from notebook_errors import describe_error, error_of
from jaxcourse.authoring import fabricate
from jaxcourse.course import canonical, read_pins

RUNTIMES = REPO / "tests" / "colab"
COLAB_JAX = read_pins(RUNTIMES / "cpu-runtime.txt")["jax"]
# Lessons whose Colab-run notebooks are also graded: the flax API and the mesh API that differ on Colab's jax.
GRADED_FROM_COLAB = ("nets-02", "dist-03")
# The stand-in: what the setup cell asks (was google.colab imported?) and what jax imports when it was.
STAND_IN = {"__init__.py": '"""Stand-in for Colab\'s google.colab: the setup cell only asks whether it was imported."""\n',
            "output.py": '"""Stand-in for google.colab.output, which jax\'s debugger imports on Colab (unused here)."""\n'}


def every_pip_name() -> tuple[str, ...]:
    return tuple(sorted({name for lesson in LESSONS for name in pip_names(release_notebook(lesson))}))


def colab_stand_in(venv: CleanVenv) -> None:
    """google.colab in the venv, imported by every kernel at start-up as on Colab."""
    site = Path(subprocess.run([venv.python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                               capture_output=True, text=True, check=True).stdout.strip())
    (site / "google" / "colab").mkdir(parents=True, exist_ok=True)
    for name, text in STAND_IN.items():
        (site / "google" / "colab" / name).write_text(text)
    startup = venv.home / ".ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-colab.py").write_text("import google.colab\n")


def colab_venv(root: Path, runtime: str, packages: tuple[str, ...]) -> CleanVenv:
    """Colab's `runtime` (cpu or tpu) versions of `packages`, ipykernel and, on tpu, libtpu."""
    extra = ("libtpu",) if runtime == "tpu" else ()
    return build(root, (*packages, *extra), f"colab-{runtime}", constraints=RUNTIMES / f"{runtime}-runtime.txt",
                 with_pip=True, prepare=colab_stand_in)


def colab_env(venv: CleanVenv) -> dict[str, str]:
    """Colab's kernel environment: no JAX_PLATFORMS; pip shares this machine's download cache."""
    env = {k: v for k, v in kernel_env(venv).items() if k != "JAX_PLATFORMS"}
    cache = subprocess.run([sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True)
    if cache.returncode == 0 and cache.stdout.strip():
        env["PIP_CACHE_DIR"] = cache.stdout.strip()
    return env


def text_of(cell) -> str:
    return "".join(out.get("text", "") for out in cell.get("outputs", []) if out.get("output_type") == "stream")


class ColabRuns:
    """One Colab CPU venv for the session, and each lesson's solved release as executed there."""

    def __init__(self, root: Path):
        self.root = root
        self.venv = colab_venv(root, "cpu", every_pip_name())
        self.executed: dict[str, nbformat.NotebookNode] = {}

    def run(self, lesson: str) -> nbformat.NotebookNode:
        if lesson not in self.executed:
            nb = release_notebook(lesson)
            answers = fabricate.solution_sources(nbformat.read(COURSE.lesson_notebook(lesson), as_version=4))
            workdir = self.root / "runs" / lesson
            workdir.mkdir(parents=True)
            self.executed[lesson] = execute(fabricate.fill(nb, answers), self.venv, workdir, env=colab_env(self.venv))
        return self.executed[lesson]


@pytest.fixture(scope="session")
def colab(tmp_path_factory) -> ColabRuns:
    return ColabRuns(tmp_path_factory.mktemp("colab"))


def test_colab_venv_is_colabs_package_set(colab):
    """The venv as built holds Colab's versions (jax 0.7.2 and all), not the course's."""
    runtime = read_pins(RUNTIMES / "cpu-runtime.txt")
    built = colab.venv.versions
    off = {name: (built.get(name), runtime[name]) for name in every_pip_name() if built.get(canonical(name)) != runtime[name]}
    assert not off, f"not at Colab's versions (got, Colab's): {off}"
    assert built["jax"] == COLAB_JAX != COURSE.pins()["jax"], "the test would prove nothing"


def test_repository_check_catches_a_visible_repository(colab, tmp_path):
    """The check appended to every run is not vacuous: a kernel given PYTHONPATH=<repo> fails it."""
    ran = execute(nbformat.v4.new_notebook(), colab.venv, tmp_path, env={**colab_env(colab.venv), "PYTHONPATH": str(REPO)})
    error = error_of(ran.cells[-1])
    assert error is not None and error.ename == "AssertionError", ran.cells[-1].outputs
    assert "jaxcourse is importable" in error.evalue, error.evalue


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_with_solutions_runs_on_colab(lesson, colab):
    """The solved release, in a fresh kernel on Colab's package set: nothing raises, and it ran the grader's jax."""
    ran = colab.run(lesson)
    problems = check_common(ran, colab.venv, colab.root / "runs" / lesson, jax_version=COURSE.pins()["jax"])
    problems += [describe_error(cell, error) for cell in ran.cells
                 if cell.cell_type == "code" and (error := error_of(cell)) is not None]
    assert not problems, f"{lesson} on Colab's package set:\n" + "\n\n".join(problems)
    graded_with, _ = setup_lists(release_notebook(lesson))
    assert graded_with == {name: COURSE.pins()[name] for name in graded_with}
    now = installed_versions(colab.venv)
    assert {name: now.get(name) for name in graded_with} == graded_with, f"after {lesson}'s setup cell"
    assert now["numpy"] == colab.venv.versions["numpy"], "the setup cell replaced Colab's numpy"


@pytest.mark.parametrize("lesson", GRADED_FROM_COLAB)
def test_notebook_run_on_colab_grades_full_marks(lesson, colab, tmp_path):
    """A solution executed on Colab's stack and handed in as it was saved there scores full marks."""
    ran = colab.run(lesson)
    course = lesson_course(tmp_path, lesson)
    submitted = fabricate.submit(course, "colab-student", lesson, ran)
    assert any("colab-setup" == cell.get("id") and text_of(cell) for cell in nbformat.read(submitted, 4).cells)
    rows = grade(course, lesson, compilation_cache=False)["colab-student"]  # one student: a cache fill costs more than it saves
    lost = [row for row in rows if float(row["points"]) != float(row["max_points"])]
    assert not lost, lost


def test_setup_cell_on_colabs_tpu_runtime(tmp_path):
    """On the TPU runtime's package list (libtpu 0.0.21.1 included): the setup cell installs the grader's
    versions, keeps numpy, says a restart is needed when jax was already imported, and afterwards a
    several-device lesson's first cells start jax on eight CPU devices despite Colab's libtpu."""
    lesson = max(LESSONS, key=lambda name: len(pip_names(release_notebook(name))))
    several = next(name for name in LESSONS if COURSE.info(name).devices == 8)
    venv = colab_venv(tmp_path, "tpu", tuple(sorted({*pip_names(release_notebook(lesson)),
                                                     *pip_names(release_notebook(several))})))
    assert venv.versions["jax"] == COLAB_JAX and "libtpu" in venv.versions
    env = colab_env(venv)
    setup = next(cell for cell in release_notebook(lesson).cells if cell.get("id") == "colab-setup")

    # A kernel that imported jax before the setup cell: Colab's jax lacks what dist-03 and dist-04 use;
    # the cell installs, then says to restart.
    probe = nbformat.v4.new_code_cell("import jax; print(jax.__version__, hasattr(jax, 'reshard'))")
    early = nbformat.v4.new_notebook(cells=[probe, setup])
    (tmp_path / "early").mkdir()
    ran = execute(early, venv, tmp_path / "early", env=env)
    assert text_of(ran.cells[0]).split() == [COLAB_JAX, "False"], ran.cells[0].outputs
    error = error_of(ran.cells[1])
    assert error is not None and error.ename == "RuntimeError", ran.cells[1].outputs
    assert "Restart session, then run this cell again" in error.evalue and "jax" in error.evalue
    said = text_of(ran.cells[1])
    assert f"jax: {COLAB_JAX} -> {COURSE.pins()['jax']}" in said, said
    assert f"libtpu {venv.versions['libtpu']} was built for Colab's own jax" in said, said
    now = installed_versions(venv)
    graded_with, _ = setup_lists(release_notebook(lesson))
    assert {name: now.get(name) for name in graded_with} == graded_with
    assert now["numpy"] == venv.versions["numpy"] and now["libtpu"] == venv.versions["libtpu"]

    # After the restart: the cell changes nothing, and the lesson's first cells run on eight CPU devices.
    nb = release_notebook(several)
    first = nb.cells[:1 + next(i for i, cell in enumerate(nb.cells) if cell.get("id") == "setup")]
    probe = nbformat.v4.new_code_cell("import json; print(json.dumps({'platforms': sorted({d.platform for d in "
                                      "jax.devices()}), 'count': jax.device_count(), 'jax': jax.__version__}))")
    (tmp_path / "after").mkdir()
    ran = execute(nbformat.v4.new_notebook(cells=[*first, probe]), venv, tmp_path / "after", env=env)
    errors = [describe_error(cell, e) for cell in ran.cells if cell.cell_type == "code" and (e := error_of(cell))]
    assert not errors, "\n".join(errors)
    setup_out = text_of(next(cell for cell in ran.cells if cell.get("id") == "colab-setup"))
    assert "Installing" not in setup_out and f"jax {COURSE.pins()['jax']}" in setup_out, setup_out
    seen = json.loads(text_of(ran.cells[-2]).strip().splitlines()[-1])
    assert seen == {"platforms": ["cpu"], "count": 8, "jax": COURSE.pins()["jax"]}, seen
    shutil.rmtree(venv.path, ignore_errors=True)   # 1 GiB of libtpu and jaxlib
