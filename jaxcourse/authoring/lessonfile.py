"""A lesson's source notebook as the release tools read it: the nbgrader regions that must not
leak, and the recorded outputs of its figure and example cells (kept beside it, so
the notebook itself holds no outputs)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor


SOLUTION_REGION = re.compile(r"### BEGIN SOLUTION\n?(.*?)### END SOLUTION", re.S)
HIDDEN_REGION = re.compile(r"### BEGIN HIDDEN TESTS\n?(.*?)### END HIDDEN TESTS", re.S)
LEAK_MARKERS = ("BEGIN SOLUTION", "END SOLUTION", "BEGIN HIDDEN TESTS", "END HIDDEN TESTS",
                "grader_check", "grader_raises")


# Cells whose recorded output students see: the lesson's figures and its "Run the example"
# program. Their outputs live beside the notebook in RECORDED_FILE, written by
# `jaxcourse record-figures`, so the source notebook itself holds no outputs and diffs as text.
RECORDED_TAGS = ("figure", "example")
RECORDED_FILE = "recorded-outputs.json"


def is_recorded(cell: NotebookNode) -> bool:
    return any(tag in RECORDED_TAGS for tag in cell.get("metadata", {}).get("tags", []))


def read_recorded(lesson_dir: Path) -> dict[str, list]:
    """Recorded outputs by cell id."""
    path = lesson_dir / RECORDED_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def write_recorded(lesson_dir: Path, executed: NotebookNode) -> Path:
    """Keep the outputs of the recorded cells of an executed lesson, one cell per key."""
    recorded = {}
    for cell in executed.cells:
        if cell.cell_type == "code" and is_recorded(cell):
            outputs = [dict(output) for output in cell.outputs]
            for output in outputs:
                if output.get("output_type") == "execute_result":
                    output["execution_count"] = None
            recorded[cell.id] = outputs
    path = lesson_dir / RECORDED_FILE
    path.write_text(json.dumps(recorded, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


class ClearOutputs(NbGraderPreprocessor):
    """Clear every output and execution count, and the metadata that running a notebook adds."""

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, index: int):
        if cell.cell_type == "code":
            cell.execution_count = None
            cell.outputs = []
        for key in ("collapsed", "scrolled", "execution", "papermill"):
            cell.metadata.pop(key, None)
        return cell, resources


def insert_recorded(nb: NotebookNode, lesson_dir: Path) -> NotebookNode:
    recorded = read_recorded(lesson_dir)
    for cell in nb.cells:
        if cell.cell_type == "code" and is_recorded(cell) and cell.get("id") in recorded:
            cell.outputs = [nbformat.from_dict(output) for output in recorded[cell.id]]
    return nb
