"""Turn a submitted file into a notebook that is safe to execute, or a clear reason why not.

Reading never modifies the submitted file. Sanitizing restores what the student may not
change (nbgrader's checksums, kernelspec and deleted test cells) and strips metadata that
would change how cells execute.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import (CheckCellMetadata, ClearOutput, DeduplicateIds, NbGraderPreprocessor,
                                    OverwriteCells, OverwriteKernelspec)

from .course import Course

MAX_NOTEBOOK_BYTES = 20 * 2**20
EXECUTION_TAGS = {"skip-execution", "raises-exception", "parameters", "injected-parameters",
                  "remove-cell", "skip", "papermill-error-cell-tag"}
EXECUTION_METADATA = ("papermill", "execution", "jaxcourse", "jaxcourse_timeout", "tags_to_remove")


class UnreadableSubmission(Exception):
    """The file is not a notebook the grader can run; the message says why, for the student."""


@dataclass
class Sanitized:
    notebook: NotebookNode
    notes: list[str] = field(default_factory=list)


def read_submission(path: Path) -> tuple[NotebookNode, list[str]]:
    notes: list[str] = []
    size = path.stat().st_size
    if size > MAX_NOTEBOOK_BYTES:
        raise UnreadableSubmission(
            f"notebook is {size / 2**20:.0f} MiB, over the {MAX_NOTEBOOK_BYTES // 2**20} MiB limit; clear outputs and resubmit")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableSubmission(f"not UTF-8 text (byte {exc.start}); the file is not a saved notebook") from None
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise UnreadableSubmission(f"not valid notebook JSON: {exc}") from None
    if not isinstance(data, dict) or "cells" not in data and "worksheets" not in data:
        raise UnreadableSubmission("JSON file is not a notebook (no cells)")
    major = data.get("nbformat")
    if major != 4:
        raise UnreadableSubmission(
            f"nbformat {major} notebooks are not supported; open it in Jupyter and save it again (nbformat 4)")
    cells = data.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise UnreadableSubmission("notebook has no list of cells")
    seen = set()
    for index, cell in enumerate(cells):
        cell_id = cell.get("id")
        if not isinstance(cell_id, str) or cell_id in seen:
            if cell_id in seen:
                notes.append(f"duplicate cell id {cell_id!r} renamed")
            cell["id"] = f"cell-{index}-{len(seen)}"
        seen.add(cell["id"])
    try:
        nb = nbformat.reads(json.dumps(data), as_version=4)
        nbformat.validate(nb)
    except Exception as exc:
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UnreadableSubmission(f"not a valid notebook: {message[:200]}") from None
    kernel = nb.metadata.get("kernelspec", {}).get("name")
    if kernel != "python3":
        notes.append(f"kernel {kernel!r} replaced by the lesson's python3 kernel" if kernel
                     else "missing kernelspec restored")
    return nb, notes


class StripExecutionMetadata(NbGraderPreprocessor):
    """Remove tags and metadata that would skip cells, swallow errors or inject parameters."""

    def preprocess_cell(self, cell: NotebookNode, resources: ResourcesDict, index: int):
        tags = cell.metadata.get("tags")
        if isinstance(tags, list):
            cell.metadata["tags"] = [t for t in tags if t not in EXECUTION_TAGS]
        for key in EXECUTION_METADATA:
            cell.metadata.pop(key, None)
        return cell, resources


def sanitize(course: Course, lesson: str, notebook_name: str, student: str, nb: NotebookNode) -> NotebookNode:
    """Run nbgrader's own autograde sanitizers, then ours, against the gradebook."""
    resources = ResourcesDict()
    resources["nbgrader"] = {"db_url": course.db_url, "assignment": lesson, "notebook": notebook_name,
                             "student": student}
    config = course.nbgrader_config()
    for preprocessor in (ClearOutput, DeduplicateIds, OverwriteKernelspec, OverwriteCells,
                         CheckCellMetadata, StripExecutionMetadata):
        nb, resources = preprocessor(config=config).preprocess(nb, resources)
    nb.metadata.pop("papermill", None)
    return nb
