"""Clean virtual environments holding pip packages only, and running release notebooks on their kernels.

Shared by tests/test_portability.py (the course's pins, or the newest packages) and tests/test_colab.py
(Colab's own package set). nbclient runs in this process; the kernel runs on the clean environment's
python, in a scratch folder outside the repository, with no PYTHONPATH. A check cell appended to each
run proves the repository was not importable in that kernel.
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
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from nbclient import NotebookClient

from conftest import REPO
from notebook_errors import describe_error, error_of
from jaxcourse.course import Course, canonical, read_pins

COURSE = Course.at(REPO)
PINS = REPO / "requirements-cpu.txt"   # a full pip freeze of the course environment
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


def setup_lists(nb: nbformat.NotebookNode) -> tuple[dict[str, str], list[str]]:
    """The Colab setup cell's (first code cell's) `graded_with` {pip name: version} and `also_needed` [pip name]."""
    setup = next(cell for cell in nb.cells if cell.cell_type == "code")
    found: dict[str, object] = {}
    for node in ast.walk(ast.parse(setup.source)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in ("graded_with", "also_needed"):
                    found[target.id] = ast.literal_eval(node.value)
    assert set(found) == {"graded_with", "also_needed"}, \
        f"the first code cell ({setup.get('id')}) lacks `graded_with = {{...}}` or `also_needed = [...]`"
    return found["graded_with"], found["also_needed"]


def pip_names(nb: nbformat.NotebookNode) -> tuple[str, ...]:
    """Every pip name the Colab setup cell names."""
    graded_with, also_needed = setup_lists(nb)
    names = {*graded_with, *also_needed}
    bad = sorted(name for name in names if not PIP_NAME.match(name))
    assert names and not bad, f"the setup cell: unusable pip names {bad or '(none)'}"
    return tuple(sorted(names))


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


def build(root: Path, packages: tuple[str, ...], flavour: str, constraints: Path | None = None,
          with_pip: bool = False, prepare: Callable[[CleanVenv], None] | None = None) -> CleanVenv:
    """python -m venv, then pip install the packages and ipykernel under `constraints` (none: newest).

    `with_pip` gives the venv a pip of its own, for notebooks that install packages themselves;
    `prepare` finishes the venv before it is listed.
    """
    started = time.monotonic()
    venv = CleanVenv(packages, flavour, root / f"{flavour}-{'-'.join(canonical(p) for p in packages)}")
    wanted = [*packages, KERNEL_PACKAGE]
    if constraints is not None:
        pinned = read_pins(constraints)
        unpinned = [p for p in wanted if canonical(p) not in pinned]
        if unpinned:
            raise RuntimeError(f"{constraints.name} pins no version of {unpinned}")
    # Without a pip of its own, this process's pip installs into the venv (and shares its cache).
    # --no-compile halves the install time; the kernel compiles only the modules it imports.
    run([sys.executable, "-m", "venv", *([] if with_pip else ["--without-pip"]), venv.path], "python -m venv", 300,
        cwd=root)
    install = [sys.executable, "-m", "pip", "--python", venv.python, "install", "--quiet",
               "--disable-pip-version-check", "--no-input", "--no-compile", *wanted]
    if constraints is not None:
        install += ["-c", constraints]
    run(install, f"pip install ({flavour}: {' '.join(wanted)})", BUILD_TIMEOUT, cwd=root, env=pip_env())
    venv.home.mkdir()
    if prepare is not None:
        prepare(venv)
    venv.versions = installed_versions(venv)
    spec = venv.kernel_dirs / venv.kernel_name
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [str(venv.python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": f"Python 3 (clean {flavour} venv)", "language": "python"}, indent=1))
    venv.seconds = time.monotonic() - started
    return venv


def installed_versions(venv: CleanVenv) -> dict[str, str]:
    """Canonical name -> version of every distribution in the venv, as it is now."""
    listing = run([venv.python, "-I", "-c", "import importlib.metadata as m, json; "
                   "print(json.dumps({d.metadata['Name']: d.version for d in m.distributions()}))"],
                  "listing the venv", 120, cwd=venv.path, env={"PATH": os.defpath})
    return {canonical(name): version for name, version in json.loads(listing.stdout).items()}


class CleanVenvs:
    """Builds each (package set, flavour) once, in the background; `get` waits for one.

    `builders` maps a flavour to `build`'s keyword arguments for it."""

    def __init__(self, root: Path, workers: int, builders: dict[str, dict]):
        self.root = root
        self.builders = builders
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="venv")
        self.futures: dict[tuple[tuple[str, ...], str], Future] = {}

    def start(self, packages: tuple[str, ...], flavour: str) -> None:
        if (packages, flavour) not in self.futures:
            self.futures[packages, flavour] = self.pool.submit(build, self.root, packages, flavour,
                                                               **self.builders[flavour])

    def get(self, packages: tuple[str, ...], flavour: str) -> CleanVenv:
        self.start(packages, flavour)
        return self.futures[packages, flavour].result()


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


def execute(nb: nbformat.NotebookNode, venv: CleanVenv, workdir: Path, env: dict[str, str] | None = None,
            **extra_env: str) -> nbformat.NotebookNode:
    """Run a copy of nb, plus the repository check cell, top to bottom on venv's python; errors stay in outputs.

    The kernel's environment is `env` (default: kernel_env(venv)) plus `extra_env`."""
    assert not inside_repo(workdir), f"kernel folder {workdir} is inside the repository"
    nb = copy.deepcopy(nb)
    check = nbformat.v4.new_code_cell(CHECK_SOURCE)
    check.id = CHECK_ID
    nb.cells.append(check)
    km = AsyncKernelManager(kernel_name=venv.kernel_name,
                            kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(venv.kernel_dirs)]))
    client = NotebookClient(nb, km=km, timeout=CELL_TIMEOUT, allow_errors=True, record_timing=True,
                            resources={"metadata": {"path": str(workdir)}})
    try:
        client.execute(cwd=str(workdir), env={**(kernel_env(venv) if env is None else env), **extra_env})
    finally:  # nbclient leaves a kernel it was handed running (each holds 0.2-0.5 GB)
        if km.has_kernel:
            run_sync(km.shutdown_kernel)(now=True)
    nbformat.write(nb, workdir / "executed.ipynb")   # kept in the tmp folder for a post-mortem
    return nb


def check_common(nb: nbformat.NotebookNode, venv: CleanVenv, workdir: Path, jax_version: str | None = None) -> list[str]:
    """Problems every run must be free of: unexecuted cells, missing figures, a visible repository,
    a jax other than `jax_version` (default: the venv's as built)."""
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
    expected = jax_version or venv.versions.get("jax")
    if seen["jax"] != expected:
        problems.append(f"the kernel imported jax {seen['jax']}, not {expected}")
    if os.path.realpath(seen["cwd"]) != os.path.realpath(workdir):
        problems.append(f"the kernel ran in {seen['cwd']}, not {workdir}")
    return problems


