"""The notebook runner as the grader sees it: kernel/run_notebook.py runs beside its kernel, inside
the sandbox, and talks to it over the ipc transport, with the connection file and the sockets in a
folder of its own. Here: the command that starts it, what its exit status means, and the reading
of the notebook it writes back, which trusts nothing in it.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat

from . import safefs

KERNEL_DIR = Path(__file__).resolve().parents[1] / "kernel"  # the code that runs inside the sandbox
SANDBOX_KERNEL_DIR = "/tmp/jaxcourse-kernel"  # the kernel's sockets: on the sandbox's own /tmp
# Outputs an executed notebook may hold: the runner keeps at most 11,000 (kernel/run_notebook.py's
# MAX_OUTPUTS) and its own notes; a file holding more was written by the submission.
MAX_OUTPUTS_READ = 12_000
# How the runner's exit status explains a run that ended early (see kernel/run_notebook.py).
# Status 3 (the kernel did not start) is the machine's failure, not the student's: KernelDidNotStart.
EXIT_NO_KERNEL = 3
RUNNER_EXITS = {4: (True, "a cell ran past its time limit and the kernel did not stop"),  # (timed out, why)
                5: (False, "the kernel died")}


def runner_command(runner: str, source: str, target: str, cell_timeout: int, output_bytes: int,
                   preimport: tuple[str, ...], kernel_dir: str) -> list[str]:
    """Start the runner: it boots the kernel at once, imports `preimport`, and runs `source` into
    `target` when the grader writes "run" on its stdin."""
    return [sys.executable, runner, source, target, str(cell_timeout), str(output_bytes), ",".join(preimport),
            kernel_dir]


def count_outputs(data: object) -> int:
    """How many outputs the cells of a notebook's JSON hold."""
    cells = data.get("cells") if isinstance(data, dict) else None
    return sum(len(cell["outputs"]) for cell in cells if isinstance(cell, dict) and isinstance(cell.get("outputs"), list)
               ) if isinstance(cells, list) else 0


def read_executed(path: Path, max_bytes: int) -> tuple[nbformat.NotebookNode | None, str]:
    """The notebook the runner wrote, and why it was refused ("" when it was not). None: missing, a
    link, too large or not a notebook."""
    try:
        raw = safefs.read_regular(path, max_bytes)
        data = json.loads(raw)
        if count_outputs(data) > MAX_OUTPUTS_READ:  # before nbformat spends per output
            return None, f"the executed notebook holds more than {MAX_OUTPUTS_READ} outputs, more than the runner keeps"
        if safefs.deeper_than(data, safefs.MAX_JSON_DEPTH):  # before anything copies it recursively
            return None, f"the executed notebook's JSON nests deeper than {safefs.MAX_JSON_DEPTH} levels"
        return nbformat.reads(raw.decode("utf-8"), as_version=4), ""
    except Exception:
        return None, ""
