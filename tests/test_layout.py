"""The package's shape: what the code must keep true as modules move (fast, no kernels)."""
import argparse
import ast
import dataclasses
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import jaxcourse
from jaxcourse.course import canonical
from jaxcourse.grading import trusted
from jaxcourse.grading.score import STATUSES, CellResult, Status
from jaxcourse.inprocess import Outcome
from jaxcourse.run import platforms
from jaxcourse.run.bubblewrap import CompilationCache
from jaxcourse.run.execute import RunSettings

pytestmark = pytest.mark.fast


def test_code_digest_sees_modules_in_subfolders(tmp_path):
    """Stored expected values are keyed on the grader's code: an edit of a module in a subfolder
    (the kernel's figures backend, or a module moved into a package) must change the key."""
    package = tmp_path / "jaxcourse"
    shutil.copytree(trusted.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = trusted.code_digest(package)
    assert before == trusted.code_digest(package)
    figures = package / "kernel" / "figures" / "jaxcourse_figures.py"
    figures.write_text(figures.read_text() + "\n# edited\n")
    edited = trusted.code_digest(package)
    assert edited != before
    (package / "new").mkdir()
    (package / "new" / "platforms.py").write_text("X = 1\n")
    added = trusted.code_digest(package)
    assert added != edited
    (package / "new" / "platforms.py").rename(package / "new" / "moved.py")
    assert trusted.code_digest(package) not in (before, edited, added)


def platform_branches(package: Path) -> list[str]:
    """Each place outside the platform table that branches on a platform's name: a comparison with
    it (`platform == "gpu"`, `in ("gpu", "tpu")`), a dict keyed by it, or a match case."""
    names = set(platforms.NAMES)

    def named(node: ast.AST) -> bool:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(element) for element in node.elts)
        return isinstance(node, ast.Constant) and node.value in names

    found = []
    for path in sorted(package.rglob("*.py")):
        if path == package / "run" / "platforms.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare):
                hit = any(named(side) for side in (node.left, *node.comparators))
            elif isinstance(node, ast.Dict):
                hit = any(key is not None and named(key) for key in node.keys)
            elif isinstance(node, ast.MatchValue):
                hit = named(node.value)
            else:
                continue
            if hit:
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    return found


def test_platform_branches_counted_on_a_planted_one(tmp_path):
    """The count below can fail: each kind of branch it looks for is found when planted."""
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "platforms.py").write_text('TABLE = {"cpu": 1}\n')  # the table itself is allowed
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "m.py").write_text(
        'def f(platform):\n'
        '    if platform == "gpu":\n        return 1\n'
        '    if platform in ("x", "tpu"):\n        return 2\n'
        '    match platform:\n        case "cpu":\n            return 3\n'
        '    return {"cpu": "CPU"}[platform]\n')
    assert platform_branches(tmp_path) == ["sub/m.py:2", "sub/m.py:4", "sub/m.py:7", "sub/m.py:9"]


def test_no_platform_branches_outside_the_platform_table():
    """What differs between platforms is one entry of platforms.TABLE, never a branch elsewhere."""
    assert platform_branches(trusted.PACKAGE) == []


def test_each_platform_is_one_complete_table_entry():
    for name, platform in platforms.TABLE.items():
        assert platform.name == name and platform.jax_platforms.split(",")[0] == name
        assert platform.device_count() >= 0 and platforms.default_workers(name) >= 1
        assert isinstance(platform.slot_env(0), dict) and platform.ray_resource


def test_one_sandbox_spec_builder():
    """Every sandbox of a run is specified by RunSettings.spec: no other module fills a SandboxSpec."""
    builders = []
    for path in sorted(trusted.PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text())
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "SandboxSpec" and (
                        node.args or node.keywords):
                    builders.append(f"{path.relative_to(trusted.PACKAGE)}:{function.name}")
    assert builders == ["run/execute.py:spec"]


def test_run_settings_confine_each_slot_and_carry_the_lesson():
    settings = RunSettings("tpu", preimport=("numpy",), draw_figures=True, lesson_env=(("LESSON", "1"),))
    cache = CompilationCache(Path("/nonexistent"))
    spec = settings.spec(2, cache)
    assert spec.device_env == {**platforms.worker_env("tpu", 2), "LESSON": "1"}
    assert (spec.platform, spec.preimport, spec.draw_figures, spec.cache) == ("tpu", ("numpy",), True, cache)
    assert settings.spec(None).device_env == {"LESSON": "1"}  # a Ray task given no chip of its own
    assert RunSettings().spec(5).device_env == {} and RunSettings().spec(5).cache is None


def package_imports(package: Path, name: str = "jaxcourse") -> dict[str, set[str]]:
    """Module -> the package's modules it imports anywhere in its text: at the top, inside a
    function, or only for type checking (each of these still ties the two modules together)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package).with_suffix("").parts
        modules[".".join((name, *parts)).removesuffix(".__init__")] = path
    graph = {}
    for module, path in modules.items():
        base = module if path.name == "__init__.py" else module.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                anchor = base
                for _ in range(node.level - 1):
                    anchor = anchor.rpartition(".")[0]
                target = (f"{anchor}.{node.module}" if node.module else anchor) if node.level else node.module
                for alias in node.names:  # `from . import x` names a module; `from .m import f` names m
                    found.add(f"{target}.{alias.name}" if f"{target}.{alias.name}" in modules else target)
            elif isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
        graph[module] = {target for target in found if target in modules and target != module}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle of the graph, each as the modules on it (Tarjan's strongly connected components)."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def test_import_cycles_are_found_when_planted(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "sub" / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("from .sub import b\n")
    (tmp_path / "sub" / "b.py").write_text("def f():\n    from ..c import g\n")
    (tmp_path / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import x\n")
    (tmp_path / "d.py").write_text("from . import c\n")
    assert import_cycles(package_imports(tmp_path, "p")) == [["p.a", "p.c", "p.sub.b"]]


def test_no_import_cycles_in_the_package():
    """Each module can be read (and moved) after the ones it imports: no two modules import each
    other, directly or round a loop, not even from inside a function or for type checking."""
    assert import_cycles(package_imports(trusted.PACKAGE)) == []


def test_every_registered_backend_implements_the_protocol_and_the_cli_offers_it():
    from jaxcourse.run.backends import BACKENDS, GRADING_BACKENDS, Backend
    from jaxcourse.cli import parser

    class Partial:  # a backend that forgot one method is not one
        shares_files = grades = False

        def prepare(self, address): pass
        def preflight(self, platform): pass
        def default_workers(self, platform): return 1
        def single(self, settings): pass

    assert not isinstance(Partial(), Backend)
    assert all(isinstance(backend, Backend) for backend in BACKENDS.values())
    assert {"local", "ray", "in-process"} <= set(BACKENDS) and GRADING_BACKENDS == ("local", "ray")
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction)).choices
    choices = {name: next(a.choices for a in sub._actions if a.dest == "backend")
               for name, sub in commands.items() if any(a.dest == "backend" for a in sub._actions)}
    assert choices == {"check-source": tuple(BACKENDS), "grade": GRADING_BACKENDS, "demo": GRADING_BACKENDS}


def test_the_in_process_backend_never_runs_a_submission():
    from jaxcourse.run.backends import BACKENDS
    from jaxcourse.run.execute import BackendUnavailable

    with pytest.raises(BackendUnavailable, match="never a submission"):
        BACKENDS["in-process"].executors(RunSettings(sandbox=False), workers=1, runs=1, cache=None)


def imported_distributions(package: Path) -> dict[str, set[str]]:
    """Distribution (canonical name) -> the package's files that import one of its modules
    directly: at the top, inside a function, or in the kernel-side code the sandbox runs."""
    local = {path.stem for path in package.rglob("*.py")}  # the runner imports its neighbours by name
    owners = importlib.metadata.packages_distributions()
    found: dict[str, set[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top in sys.stdlib_module_names or top in local or top == package.name:
                    continue
                for distribution in owners.get(top, [f"(no distribution provides {top})"]):
                    found.setdefault(canonical(distribution), set()).add(str(path.relative_to(package)))
    return found


def declared_distributions() -> set[str]:
    project = tomllib.loads((trusted.PACKAGE.parent / "pyproject.toml").read_text())["project"]
    requirements = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    return {canonical(re.split(r"[<>=!~; ]", requirement, maxsplit=1)[0]) for requirement in requirements}


def test_an_undeclared_import_is_found(tmp_path):
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "sub" / "m.py").write_text("import os\nfrom . import sub\n\ndef f():\n    import psutil.tests\n")
    assert imported_distributions(package) == {"psutil": {"sub/m.py"}}


def test_pyproject_lists_every_distribution_the_package_imports():
    """`pip install .` must bring every package the grader imports: nothing may come in only
    because the course's pinned requirements happen to hold it."""
    missing = {name: sorted(files) for name, files in imported_distributions(trusted.PACKAGE).items()
               if name not in declared_distributions()}
    assert missing == {}


IMPORT_SIDE_EFFECTS = """
import os, sys
path = os.environ["PATH"]
import {modules}
poisoned = sorted(name for name, module in sys.modules.items() if module is None)
assert os.environ["PATH"] == path and not poisoned, (os.environ["PATH"], poisoned)
from jaxcourse.course import Course
Course.at("/nonexistent").db_url  # the gradebook's first use puts this environment's tools on PATH
assert os.environ["PATH"].split(os.pathsep)[0] == os.path.dirname(sys.executable)
"""


def test_importing_the_library_changes_nothing_in_the_process():
    """`import jaxcourse` (and its library modules) neither rewrites PATH nor plants modules; the
    command-line entry points alone drop jsonschema's format checkers."""
    library = ["jaxcourse", "jaxcourse.grading.grade", "jaxcourse.authoring.release", "jaxcourse.authoring.check",
               "jaxcourse.grading.expected", "jaxcourse.run.backends"]
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/tmp")}
    done = subprocess.run([sys.executable, "-c", IMPORT_SIDE_EFFECTS.format(modules=", ".join(library))],
                          cwd=trusted.PACKAGE.parent, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    entry = subprocess.run([sys.executable, "-c", "import sys, jaxcourse.cli; assert sys.modules['rfc3987_syntax'] is None"],
                           cwd=trusted.PACKAGE.parent, env=env, capture_output=True, text=True, timeout=120)
    assert entry.returncode == 0, entry.stderr


# What each part of the package may import of the others (see each package's __init__).
LAYERS = {"jaxcourse.run": set(), "jaxcourse.course": {"jaxcourse.run"},
          "jaxcourse.grading": {"jaxcourse.run", "jaxcourse.course"},
          "jaxcourse.authoring": {"jaxcourse.grading", "jaxcourse.run", "jaxcourse.course"}}


def layer(module: str) -> str:
    return next((name for name in LAYERS if module == name or module.startswith(name + ".")), module)


def test_each_package_imports_only_the_layers_below_it():
    """run imports no other part of jaxcourse and no nbgrader; grading never imports authoring;
    only the entry points (cli, inprocess, export, hub) sit above all three."""
    crossings = {(layer(module), layer(target)) for module, targets in package_imports(trusted.PACKAGE).items()
                 for target in targets if layer(module) != layer(target)}
    below = {(source, target) for source, target in crossings if source in LAYERS}
    assert {(s, t) for s, t in below if t not in LAYERS[s]} == set()
    assert {s for s, _ in crossings} - set(LAYERS) <= {"jaxcourse.cli", "jaxcourse.inprocess", "jaxcourse.export",
                                                       "jaxcourse.hub"}
    run_imports = {top for path in (trusted.PACKAGE / "run").rglob("*.py")
                   for node in ast.walk(ast.parse(path.read_text()))
                   for top in ([a.name.split(".")[0] for a in node.names] if isinstance(node, ast.Import) else
                               [node.module.split(".")[0]] if isinstance(node, ast.ImportFrom) and node.level == 0
                               else [])}
    assert not run_imports & {"nbgrader", "papermill", "nbclient"}


STATUS_WORDS = set(STATUSES) | set(Outcome)


def bare_statuses(package: Path) -> list[str]:
    """Each place that compares or writes a status as bare text instead of its enum (score.Status,
    inprocess.Outcome): `row["status"] == "ok"`, `{"status": "failed"}`, `status="error"`, a
    CellResult built with a string, or `Status.OK.value`."""
    def word(node: ast.AST) -> bool:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(word(element) for element in node.elts)
        return isinstance(node, ast.Constant) and node.value in STATUS_WORDS

    def about_status(node: ast.AST) -> bool:
        return (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and node.slice.value == "status"
                or isinstance(node, ast.Attribute) and node.attr == "status"
                or isinstance(node, ast.Name) and "status" in node.id)

    found = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Compare):
                sides = (node.left, *node.comparators)
                hit = any(map(word, sides)) and any(map(about_status, sides))
            elif isinstance(node, ast.Dict):
                hit = any(isinstance(k, ast.Constant) and k.value == "status" and word(v) for k, v in zip(node.keys, node.values))
            elif isinstance(node, ast.Call):
                hit = (any(k.arg == "status" and word(k.value) for k in node.keywords)
                       or getattr(node.func, "id", None) == "CellResult" and len(node.args) > 3 and word(node.args[3]))
            elif isinstance(node, ast.Assign):
                hit = word(node.value) and any(map(about_status, node.targets))
            elif isinstance(node, ast.Attribute):
                hit = (node.attr == "value" and isinstance(node.value, ast.Attribute)
                       and getattr(node.value.value, "id", None) in ("Status", "Outcome"))
            else:
                continue
            if hit:
                found.append((str(path.relative_to(package)), node.lineno))
    return [f"{name}:{line}" for name, line in sorted(found)]


def test_bare_statuses_are_found_when_planted(tmp_path):
    (tmp_path / "m.py").write_text(
        'def f(row, entry, result):\n'
        '    if row["status"] == "ok":\n        return 1\n'
        '    if entry.status in ("timeout", "x"):\n        return 2\n'
        '    result.status = "failed"\n'
        '    g(status="tampered")\n'
        '    CellResult("t", 0, 1, "error", "")\n'
        '    return {"status": "FAIL"}, Status.OK.value\n')
    assert bare_statuses(tmp_path) == ["m.py:2", "m.py:4", "m.py:6", "m.py:7", "m.py:8", "m.py:9", "m.py:9"]


def test_statuses_are_the_enum_end_to_end():
    """No status is compared or written as bare text; a CellResult holds a Status, its ledger text
    reads back as one, and a status the enum does not know is refused."""
    assert bare_statuses(trusted.PACKAGE) == []
    row = CellResult("t", 0.0, 1.0, Status.FAILED, "wrong")
    assert type(row.status) is Status
    back = CellResult(**json.loads(json.dumps(dataclasses.asdict(row))))
    assert back == row and type(back.status) is Status and json.dumps(back.status) == '"failed"'
    with pytest.raises(ValueError):
        CellResult("t", 0.0, 1.0, "passed", "")


DOTTED = re.compile(r"^[A-Za-z]\w*(\.\w+)+$")


def private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_names(package: Path) -> dict[str, list[str]]:
    """Each private name of another library the package uses, with where: an attribute read on
    anything but self or cls (`super()._x` included), a method `_x` of a class derived from an
    imported one (an override), an import of a private module or name, or a private module's
    dotted name in a string."""
    found: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        imported = {alias.asname or alias.name.split(".")[0] for node in ast.walk(tree)
                    if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
        where = lambda node: f"{path.relative_to(package)}:{node.lineno}"  # noqa: E731
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Attribute) and private(node.attr):
                if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    names.append(node.attr)
            elif isinstance(node, ast.ClassDef) and any(getattr(b, "id", None) in imported for b in node.bases):
                names += [item.name for item in node.body
                          if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(item.name)]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module != "__future__":
                names += [node.module] if any(map(private, node.module.split("."))) else []
                names += [alias.name for alias in node.names if private(alias.name)]
            elif isinstance(node, ast.Import):
                names += [alias.name for alias in node.names if any(map(private, alias.name.split(".")))]
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and DOTTED.match(node.value):
                names += [node.value] if any(map(private, node.value.split("."))) else []
            for name in names:
                found.setdefault(name, []).append(where(node))
    return found


def test_private_names_are_found_when_planted(tmp_path):
    (tmp_path / "m.py").write_text(
        "from matplotlib._pylab_helpers import Gcf\nfrom matplotlib.backend_bases import _Backend\n"
        "import jaxlib._jax\nfrom nbclient import NotebookClient\n\n\n"
        "class Client(NotebookClient):\n"
        "    async def _async_handle_timeout(self, timeout, cell=None):\n"
        "        self._mine = 1\n"
        "        return await super()._async_handle_timeout(timeout, cell)\n\n\n"
        "class Local:\n    def _helper(self):\n        pass\n\n\n"
        "PREIMPORT = ('numpy', 'jax._src.array', 'not a._module path')\n")
    assert private_names(tmp_path) == {
        "matplotlib._pylab_helpers": ["m.py:1"], "_Backend": ["m.py:2"], "jaxlib._jax": ["m.py:3"],
        "_async_handle_timeout": ["m.py:7", "m.py:10"], "jax._src.array": ["m.py:18"]}


def test_each_private_name_used_is_named_with_its_reason():
    """A private name of another library breaks silently on its upgrade: each one the package still
    uses is listed, with its reason, in jaxcourse.PRIVATE_NAMES, and nothing listed is unused."""
    assert set(private_names(trusted.PACKAGE)) == set(jaxcourse.PRIVATE_NAMES), private_names(trusted.PACKAGE)
    assert all(len(reason) > 40 for reason in jaxcourse.PRIVATE_NAMES.values())


@pytest.mark.parametrize("script", sorted((Path(__file__).resolve().parents[1] / "benchmarks").glob("*.py")),
                         ids=lambda path: path.name)
def test_each_benchmark_script_starts(script):
    """benchmarks/ sits outside the package and its tests: a module that moves, or a lesson cell a
    benchmark reads, must not break it unseen."""
    done = subprocess.run([sys.executable, str(script), "--help"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"usage: {script.name}" in done.stdout


def test_the_tokens_benchmark_runs_the_lesson_cells_it_names():
    """capstone_tokens.py executes capstone-02's cells by id: a renamed cell or a changed helper
    shows here, not on the next accelerator run."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "capstone_tokens.py"
    done = subprocess.run([sys.executable, str(script), "--batch", "2", "--steps", "2", "--rounds", "1"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr[-2000:]
    rates = re.findall(r"median\s+([\d,]+) tokens/s", done.stdout)
    assert len(rates) == 2 and all(int(rate.replace(",", "")) > 0 for rate in rates), done.stdout
    assert "default device / host cpu" in done.stdout


def test_the_attention_benchmark_runs_the_lesson_cells_it_names():
    """attention_tokens.py executes pallas-02's cells by id (the kernel, the model, pallas_heads): a
    renamed cell or a changed helper shows here, not on the next accelerator run."""
    script = Path(__file__).resolve().parents[1] / "benchmarks" / "attention_tokens.py"
    done = subprocess.run([sys.executable, str(script), "--quick", "--length", "64"],
                          capture_output=True, text=True, timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert done.returncode == 0, done.stderr[-2000:]
    rows = re.findall(r"^(xla|pallas)\s+64\s+([\d,]+)", done.stdout, re.MULTILINE)
    assert sorted(name for name, _ in rows) == ["pallas", "xla"], done.stdout
    assert all(int(rate.replace(",", "")) > 0 for _, rate in rows), done.stdout
    assert "pallas / xla tokens per second" in done.stdout
