"""Every release notebook runs with pip packages alone, as a student in Colab or a plain Jupyter has it.

For each lesson, the Colab setup cell (the first code cell) names what the notebook needs
(`needed = [(module, pip name), ...]`). A clean virtual environment holds only those pip
packages plus ipykernel: nothing from this repository, no nbgrader, no jaxcourse. It comes in
two flavours: "pinned" (requirements-cpu.txt as a constraints file) and "newest" (whatever the
registry serves today). `make test` runs the pinned flavour only, so a registry release cannot
turn it red; `make test-newest` runs the newest (PORTABILITY_FLAVOURS=newest). Each distinct (package set, flavour) is built once per session, the
builds running side by side in the background while the notebooks execute.

nbclient runs in this process; the kernel runs on the clean environment's python, in a scratch
folder outside the repository, with no PYTHONPATH and JAX_PLATFORMS=cpu. Each release runs
with the instructor's solutions filled in, and nothing may fail; a check cell appended to
the run proves the repository was not importable in that kernel. (That the untouched
release fails only in its exercises is proven on its graded run, in tests/test_lessons.py.)
"""
from __future__ import annotations

import ast
import copy
import json
import os
import re
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from nbclient import NotebookClient
from packaging.version import Version

from conftest import LESSONS, REPO
from notebook_errors import describe_error, error_of
from jaxcourse import fabricate
from jaxcourse.course import Course
from jaxcourse.publish import canonical, read_pins

COURSE = Course.at(REPO)
PINS = REPO / "requirements-cpu.txt"   # a full pip freeze of the course environment
FLAVOURS = tuple(os.environ.get("PORTABILITY_FLAVOURS", "pinned").split(","))
KERNEL_PACKAGE = "ipykernel"           # the kernel itself: every Jupyter and Colab has it
NOT_IN_A_STUDENT_VENV = ("jaxcourse", "nbgrader")
CELL_TIMEOUT = 120
BUILD_TIMEOUT = 1800                   # one pip install, from a cold cache on a slow line
PIP_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*(\[[A-Za-z0-9._,-]+\])?$")
CHECK_ID = "portability-check"


def inside_repo(path: str | os.PathLike) -> bool:
    here, repo = os.path.realpath(path), os.path.realpath(REPO)
    return here == repo or here.startswith(repo + os.sep)


def release_notebook(lesson: str) -> nbformat.NotebookNode:
    return nbformat.read(COURSE.release / lesson / f"{lesson}.ipynb", as_version=4)


def pip_names(nb: nbformat.NotebookNode) -> tuple[str, ...]:
    """The pip names in the Colab setup cell's `needed = [(module, pip name), ...]`."""
    setup = next(cell for cell in nb.cells if cell.cell_type == "code")
    for node in ast.walk(ast.parse(setup.source)):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "needed" for t in node.targets):
            names = {name for _module, name in ast.literal_eval(node.value)}
            bad = sorted(name for name in names if not PIP_NAME.match(name))
            assert names and not bad, f"setup cell {setup.get('id')}: unusable pip names {bad or '(none)'}"
            return tuple(sorted(names))
    raise AssertionError(f"the first code cell ({setup.get('id')}) has no `needed = [...]` line")


def pins() -> dict[str, str]:
    return read_pins(PINS)


# ---------------------------------------------------------------------------------------------
# Clean virtual environments

@dataclass
class CleanVenv:
    packages: tuple[str, ...]
    flavour: str
    path: Path
    versions: dict[str, str] = field(default_factory=dict)   # canonical name -> version
    seconds: float = 0.0

    @property
    def python(self) -> Path:
        return self.path / "bin" / "python"     # not resolved: the symlink is what makes it a venv

    @property
    def kernel_name(self) -> str:
        return f"clean-{self.flavour}-{'-'.join(canonical(p) for p in self.packages)}"

    @property
    def kernel_dirs(self) -> Path:
        return self.path / "kernelspecs"

    @property
    def home(self) -> Path:
        """The kernels' HOME: shared by this venv's kernels so matplotlib builds its font cache once."""
        return self.path / "home"

    def describe(self) -> str:
        shown = [canonical(p) for p in (*self.packages, "jaxlib", KERNEL_PACKAGE)]
        listed = ", ".join(f"{name} {self.versions[name]}" for name in dict.fromkeys(shown) if name in self.versions)
        return f"{self.flavour:6} [{' '.join(self.packages)}]: {listed} ({len(self.versions)} dists, {self.seconds:.0f}s)"


def pip_env() -> dict[str, str]:
    """This process's environment (proxies, index mirrors, cache settings) minus what would bend the install."""
    drop = {"PYTHONPATH", "PYTHONHOME", "PIP_CONSTRAINT", "PIP_REQUIREMENT", "PIP_USER", "PIP_TARGET",
            "PIP_PREFIX", "PIP_EDITABLE", "PIP_UPGRADE", "VIRTUAL_ENV"}
    return {k: v for k, v in os.environ.items() if k not in drop}


def run(command: list, what: str, timeout: int, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True, timeout=timeout, **kwargs)
    if done.returncode != 0:
        raise RuntimeError(f"{what} failed ({done.returncode}):\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    return done


def build(root: Path, packages: tuple[str, ...], flavour: str) -> CleanVenv:
    """python -m venv, then pip install the packages and ipykernel, pinned or newest."""
    started = time.monotonic()
    venv = CleanVenv(packages, flavour, root / f"{flavour}-{'-'.join(canonical(p) for p in packages)}")
    wanted = [*packages, KERNEL_PACKAGE]
    if flavour == "pinned":
        unpinned = [p for p in wanted if canonical(p) not in pins()]
        if unpinned:
            raise RuntimeError(f"{PINS.name} pins no version of {unpinned}")
    # The venv gets no pip of its own: this process's pip installs into it (and shares its cache).
    # --no-compile halves the install time; the kernel compiles only the modules it imports.
    run([sys.executable, "-m", "venv", "--without-pip", venv.path], "python -m venv", 300, cwd=root)
    install = [sys.executable, "-m", "pip", "--python", venv.python, "install", "--quiet",
               "--disable-pip-version-check", "--no-input", "--no-compile", *wanted]
    if flavour == "pinned":
        install += ["-c", PINS]
    run(install, f"pip install ({flavour}: {' '.join(wanted)})", BUILD_TIMEOUT, cwd=root, env=pip_env())
    listing = run([venv.python, "-I", "-c", "import importlib.metadata as m, json; "
                   "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))"],
                  "listing the venv", 120, cwd=root, env={"PATH": os.defpath})
    venv.versions = {canonical(name): version for name, version in json.loads(listing.stdout).items()}
    spec = venv.kernel_dirs / venv.kernel_name
    spec.mkdir(parents=True)
    venv.home.mkdir()
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(venv.python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python 3 (clean {flavour} venv)", "language": "python"}, indent=1))
    venv.seconds = time.monotonic() - started
    return venv


class CleanVenvs:
    """Builds each (package set, flavour) once, in the background; `get` waits for one."""

    def __init__(self, root: Path, workers: int):
        self.root = root
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="venv")
        self.futures: dict[tuple[tuple[str, ...], str], Future] = {}

    def start(self, packages: tuple[str, ...], flavour: str) -> None:
        if (packages, flavour) not in self.futures:
            self.futures[packages, flavour] = self.pool.submit(build, self.root, packages, flavour)

    def get(self, packages: tuple[str, ...], flavour: str) -> CleanVenv:
        self.start(packages, flavour)
        return self.futures[packages, flavour].result()


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
    builds = CleanVenvs(root, workers=2)
    for packages, flavour in wanted:
        builds.start(packages, flavour)
    yield builds
    builds.pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------------------------
# Running a notebook on a clean kernel

CHECK_SOURCE = f"""\
# Added by tests/test_portability.py: the course repository must be invisible to this kernel.
import importlib.util as _util, json as _json, os as _os, sys as _sys
_repo = _os.path.realpath({str(REPO)!r})
def _inside(path):
    path = _os.path.realpath(path or _os.getcwd())
    return path == _repo or path.startswith(_repo + _os.sep)
try:
    import jaxcourse
except ModuleNotFoundError as _err:
    assert _err.name == "jaxcourse", f"jaxcourse was found but its import failed: {{_err}}"
else:
    raise AssertionError(f"jaxcourse is importable from {{jaxcourse.__file__}}")
for _name in {list(NOT_IN_A_STUDENT_VENV)!r}:
    assert _util.find_spec(_name) is None, f"{{_name}} is importable in the kernel"
assert not [p for p in _sys.path if _inside(p)], f"sys.path entries inside the repository: {{_sys.path}}"
assert not _inside(_os.getcwd()), f"the kernel runs inside the repository: {{_os.getcwd()}}"
assert "PYTHONPATH" not in _os.environ, _os.environ["PYTHONPATH"]
import jax as _jax
print(_json.dumps({{"prefix": _sys.prefix, "jax": _jax.__version__, "jax_file": _jax.__file__, "cwd": _os.getcwd()}}))
"""


def kernel_env(venv: CleanVenv) -> dict[str, str]:
    """A fresh student's environment: no PYTHONPATH, no Jupyter or pip settings, a home of its own."""
    return {"PATH": f"{venv.path / 'bin'}{os.pathsep}/usr/local/bin:/usr/bin:/bin", "HOME": str(venv.home),
            "LANG": "C.UTF-8", "JAX_PLATFORMS": "cpu"}


def execute(nb: nbformat.NotebookNode, venv: CleanVenv, workdir: Path, **extra_env: str) -> nbformat.NotebookNode:
    """Run a copy of nb, plus the repository check cell, top to bottom on venv's python; errors stay in outputs."""
    assert not inside_repo(workdir), f"kernel folder {workdir} is inside the repository"
    nb = copy.deepcopy(nb)
    check = nbformat.v4.new_code_cell(CHECK_SOURCE)
    check.id = CHECK_ID
    nb.cells.append(check)
    km = AsyncKernelManager(kernel_name=venv.kernel_name,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(venv.kernel_dirs)]))
    client = NotebookClient(nb, km=km, timeout=CELL_TIMEOUT, allow_errors=True, record_timing=True,
                            resources={"metadata": {"path": str(workdir)}})
    client.execute(cwd=str(workdir), env={**kernel_env(venv), **extra_env})
    nbformat.write(nb, workdir / "executed.ipynb")   # kept in the tmp folder for a post-mortem
    return nb


def check_common(nb: nbformat.NotebookNode, venv: CleanVenv, workdir: Path) -> list[str]:
    """Problems every run must be free of: unexecuted cells, missing figures, a visible repository."""
    problems = []
    for cell in nb.cells:
        if cell.cell_type == "code" and cell.get("execution_count") is None:
            problems.append(f"cell {cell.get('id')} never ran")
    for cell in nb.cells:
        if "figure" in cell.metadata.get("tags", []) and error_of(cell) is None and not any(
                "image/png" in out.get("data", {}) for out in cell.get("outputs", [])):
            problems.append(f"figure cell {cell.get('id')} showed no image/png")
    check = nb.cells[-1]
    assert check.get("id") == CHECK_ID
    error = error_of(check)
    if error is not None:
        return problems + [f"repository check: {describe_error(check, error)}"]
    text = "".join(out.get("text", "") for out in check.outputs if out.output_type == "stream")
    seen = json.loads(text.strip().splitlines()[-1])
    if os.path.realpath(seen["prefix"]) != os.path.realpath(venv.path):
        problems.append(f"the kernel ran in {seen['prefix']}, not the clean venv {venv.path}")
    if not os.path.realpath(seen["jax_file"]).startswith(os.path.realpath(venv.path) + os.sep):
        problems.append(f"jax came from {seen['jax_file']}, outside the clean venv")
    if seen["jax"] != venv.versions.get("jax"):
        problems.append(f"the kernel imported jax {seen['jax']}, the venv holds {venv.versions.get('jax')}")
    if os.path.realpath(seen["cwd"]) != os.path.realpath(workdir):
        problems.append(f"the kernel ran in {seen['cwd']}, not {workdir}")
    return problems


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
    pinned_versions = pins()
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


@pytest.mark.parametrize("flavour", FLAVOURS[:1])
@pytest.mark.parametrize("lesson", LESSONS[:1])
def test_repository_check_catches_a_visible_repository(lesson, flavour, venvs, tmp_path):
    """The appended check is not vacuous: a kernel given PYTHONPATH=<repo> fails it."""
    venv = venvs.get(pip_names(release_notebook(lesson)), flavour)
    ran = execute(nbformat.v4.new_notebook(), venv, tmp_path, PYTHONPATH=str(REPO))
    error = error_of(ran.cells[-1])
    assert error is not None and error.ename == "AssertionError", ran.cells[-1].outputs
    assert "jaxcourse is importable" in error.evalue, error.evalue
