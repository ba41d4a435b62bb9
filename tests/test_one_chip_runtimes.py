"""The lessons that need several devices run on virtual CPU devices, whatever accelerator the runtime has.

Colab's TPU and GPU runtimes have one chip (TPU v5e-1, v6e-1, one GPU), and nothing there sets
JAX_PLATFORMS. So each lesson whose metadata.jaxcourse.devices is above one must choose the CPU
platform (with os.environ.setdefault) and its device count in its first cells, before JAX starts.
Here the release's code cells, up to and including the first that imports jax, run in a real
kernel with JAX_PLATFORMS, JAX_NUM_CPU_DEVICES and XLA_FLAGS unset; JAX must then report the
`cpu` platform setting and the declared device count. The lessons are found by their metadata.
"""
from __future__ import annotations

import ast
import json
import os
import re

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from conftest import LESSONS, REPO
from jaxcourse.course import Course

COURSE = Course.at(REPO)
SEVERAL = [lesson for lesson in LESSONS if COURSE.info(lesson).devices > 1]
UNSET = ("JAX_PLATFORMS", "JAX_NUM_CPU_DEVICES", "XLA_FLAGS")
PROBE = ('import json, jax\n'
         'print(json.dumps({"platforms": jax.config.jax_platforms, "devices": jax.device_count()}))')


def imports_jax(source: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "jax" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module.split(".")[0] == "jax":
            return True
    return False


def first_cells(nb: nbformat.NotebookNode) -> list[nbformat.NotebookNode]:
    """The code cells up to and including the first that imports jax."""
    cells = []
    for cell in nb.cells:
        if cell.cell_type == "code":
            cells.append(cell)
            if imports_jax(cell.source):
                return cells
    raise AssertionError("no code cell imports jax")


def start_up_problems(cells: list[nbformat.NotebookNode], devices: int, workdir) -> list[str]:
    """Run the cells, then ask JAX what it started with, in a kernel whose environment chose nothing."""
    probe = nbformat.v4.new_code_cell(PROBE, id="probe")
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c.source, id=c.id) for c in cells] + [probe])
    env = {name: value for name, value in os.environ.items() if name not in UNSET}
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(workdir)}})
    try:
        client.execute(cwd=str(workdir), env=env)
    except CellExecutionError as err:
        return [f"the first cells raise {err.ename}: {err.evalue}"]
    text = "".join(out.get("text", "") for out in nb.cells[-1].outputs if out.output_type == "stream")
    seen = json.loads(text.strip().splitlines()[-1])
    problems = []
    if seen["platforms"] != "cpu":
        problems.append(f"JAX's platform setting is {seen['platforms']!r}, not 'cpu': the first cells must call "
                        'os.environ.setdefault("JAX_PLATFORMS", "cpu") before jax is imported')
    if seen["devices"] != devices:
        problems.append(f"JAX started {seen['devices']} devices; the lesson declares {devices}")
    return problems


def release_nb(lesson: str) -> nbformat.NotebookNode:
    return nbformat.read(COURSE.release / lesson / f"{lesson}.ipynb", as_version=4)


def test_the_several_device_lessons_are_found_by_their_metadata():
    assert {"welcome-cpu", "dist-01"} <= set(SEVERAL)
    assert all(COURSE.info(lesson).platforms == ("cpu",) for lesson in SEVERAL)


@pytest.mark.parametrize("lesson", SEVERAL)
def test_first_cells_choose_the_cpu_and_the_declared_devices(lesson, tmp_path):
    assert start_up_problems(first_cells(release_nb(lesson)), COURSE.info(lesson).devices, tmp_path) == []


PLATFORM_LINE = re.compile(r'^os\.environ\.setdefault\("JAX_PLATFORMS".*\n', re.M)
COUNT_LINE = re.compile(r'^os\.environ\.setdefault\("JAX_NUM_CPU_DEVICES".*\n', re.M)


@pytest.mark.parametrize("line, found", [(PLATFORM_LINE, "platform setting is None"), (COUNT_LINE, "RuntimeError")])
def test_first_cells_that_leave_the_platform_or_the_count_to_the_runtime_fail(line, found, tmp_path):
    """A lesson without one of its setdefault lines: no platform setting, or one device and the lesson's own error."""
    lesson = next(lesson for lesson in SEVERAL if COUNT_LINE.search(first_cells(release_nb(lesson))[-1].source))
    cells = first_cells(release_nb(lesson))
    setup = cells[-1]
    assert line.search(setup.source), f"{lesson} sets it in its first cells"
    setup.source = line.sub("", setup.source)
    problems = start_up_problems(cells, COURSE.info(lesson).devices, tmp_path)
    assert any(found in problem for problem in problems), problems
