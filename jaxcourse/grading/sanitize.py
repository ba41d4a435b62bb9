"""Turn a submitted file into a notebook that is safe to execute, or a clear reason why not.

Reading never modifies the submitted file. Sanitizing restores what the student may not
change (nbgrader's checksums, kernelspec and deleted test cells) and strips metadata that
would change how cells execute.
"""
from __future__ import annotations

import codecs
import copy
import json
import re
from pathlib import Path

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.api import Gradebook
from nbgrader.preprocessors import (CheckCellMetadata, ClearOutput, DeduplicateIds, NbGraderPreprocessor,
                                    OverwriteCells, OverwriteKernelspec)

from ..course import Course
from ..run import safefs
from .collect import MAX_NOTEBOOK_BYTES, shown
from .trusted import cells_by_grade_id

EXECUTION_TAGS = {"skip-execution", "raises-exception", "parameters", "injected-parameters",
                  "remove-cell", "skip", "papermill-error-cell-tag"}
EXECUTION_METADATA = ("papermill", "execution", "jaxcourse", "jaxcourse_timeout", "tags_to_remove")


class UnreadableSubmission(Exception):
    """The file is not a notebook the grader can run; the message says why, for the student."""


CELL_KEYS = {"markdown": {"id", "cell_type", "metadata", "source", "attachments"},
             "raw": {"id", "cell_type", "metadata", "source", "attachments"},
             "code": {"id", "cell_type", "metadata", "source", "outputs", "execution_count"}}
OUTPUT_KEYS = {"stream": {"output_type", "name", "text"},
               "display_data": {"output_type", "data", "metadata"},
               "execute_result": {"output_type", "data", "metadata", "execution_count"},
               "error": {"output_type", "ename", "evalue", "traceback"}}
CELL_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")
EDITORS = {"colab": "Colab", "kaggle": "Kaggle", "vscode": "VS Code"}


# The types nbgrader's own code assumes for the fields it reads (nbgrader.utils, its preprocessors).
NBGRADER_FIELDS = {"grade_id": (str,), "points": (int, float), "grade": (bool,), "solution": (bool,),
                   "locked": (bool,), "task": (bool,), "schema_version": (int,), "cell_type": (str,),
                   "checksum": (str,)}


def nbgrader_metadata_ok(meta) -> bool:
    return isinstance(meta, dict) and all(
        isinstance(meta[key], kinds) and not (kinds != (bool,) and isinstance(meta[key], bool))
        for key, kinds in NBGRADER_FIELDS.items() if key in meta)


def upgrade(data: dict) -> list[str]:
    """Bring any nbformat 4.x notebook, as Colab, Kaggle or VS Code save it, to valid 4.5 in place.

    Returns what was repaired, for the student's detail. Only structure changes: cell ids
    are added, fields the format does not define are dropped, and missing fields get defaults.
    """
    repairs = []
    minor = data.get("nbformat_minor")
    metadata = data.get("metadata")
    editor = next((name for key, name in EDITORS.items() if isinstance(metadata, dict) and key in metadata), None)
    if not isinstance(minor, int) or minor < 5:
        repairs.append(f"upgraded from nbformat 4.{minor}" + (f" ({editor})" if editor else ""))
    data["nbformat_minor"] = 5
    if not isinstance(data.get("metadata"), dict):
        data["metadata"] = {}
    for key in [k for k in data if k not in ("cells", "metadata", "nbformat", "nbformat_minor")]:
        del data[key]
    seen, dropped, renamed = set(), 0, 0
    for index, cell in enumerate(data["cells"]):
        kind = cell.get("cell_type")
        if not isinstance(kind, str) or kind not in CELL_KEYS:
            raise UnreadableSubmission(f"cell {index} has an unknown type {str(kind)[:20]!r}")
        if not isinstance(cell.get("metadata"), dict):
            cell["metadata"] = {}
        if "nbgrader" in cell["metadata"] and not nbgrader_metadata_ok(cell["metadata"]["nbgrader"]):
            del cell["metadata"]["nbgrader"]  # as if the cell were new: sanitize restores what was locked
            dropped += 1
        cell.setdefault("source", "")
        if kind == "code":
            cell.setdefault("execution_count", None)
            outputs = cell.get("outputs") if isinstance(cell.get("outputs"), list) else []
            # Outputs are never executed or graded: one the format does not define is dropped, not fatal.
            kept = [o for o in outputs if isinstance(o, dict) and isinstance(o.get("output_type"), str)
                    and o["output_type"] in OUTPUT_KEYS]
            dropped += len(outputs) - len(kept) + ("outputs" in cell and not isinstance(cell["outputs"], list))
            for output in kept:
                for key in [k for k in output if k not in OUTPUT_KEYS[output["output_type"]]]:
                    del output[key]
                    dropped += 1
            cell["outputs"] = kept
        for key in [k for k in cell if k not in CELL_KEYS[kind]]:
            del cell[key]
            dropped += 1
        cell_id = cell.get("id")
        if not (isinstance(cell_id, str) and CELL_ID.match(cell_id)):
            colab_id = cell["metadata"].get("id")  # Colab keeps its ids in the cell metadata
            cell_id = colab_id if isinstance(colab_id, str) and CELL_ID.match(colab_id) else None
        if cell_id is None or cell_id in seen:
            if cell.get("id") is not None:
                renamed += 1
            cell_id = f"cell-{index}"
            while cell_id in seen:
                cell_id += "-x"
        cell["id"] = cell_id
        seen.add(cell_id)
    if renamed:
        repairs.append(f"{renamed} missing, invalid or repeated cell id(s) replaced")
    if dropped:
        repairs.append(f"{dropped} field(s) the notebook format does not define removed")
    return repairs


def without_lone_surrogates(data):
    """JSON's \\ud800 escapes decode to text no UTF-8 writer accepts: replace each with U+FFFD."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
        return data, 0
    except UnicodeEncodeError:
        fixed = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        return json.loads(fixed), sum(1 for ch in text if "\ud800" <= ch <= "\udfff")


def valid_notebook(data: dict) -> NotebookNode:
    """`data` as a notebook; the format's ValidationError if it breaks the format (validated once:
    a notebook padded with 10^5 cells spends seconds in each validation)."""
    invalid: dict = {}
    nb = nbformat.reads(json.dumps(data), as_version=4, capture_validation_error=invalid)
    if invalid:
        raise invalid["ValidationError"]
    return nb


def read_submission(path: Path) -> tuple[NotebookNode, list[str]]:
    """Read a submitted file without changing it: the notebook, upgraded in memory, and what was repaired."""
    notes: list[str] = []
    try:
        raw = safefs.read_regular(path, MAX_NOTEBOOK_BYTES)  # no link followed, no pipe waited on
    except safefs.TooLarge as exc:
        raise UnreadableSubmission(f"notebook is {exc.size / 2**20:.0f} MiB, over the "
                                   f"{MAX_NOTEBOOK_BYTES // 2**20} MiB limit; clear outputs and resubmit") from None
    except OSError:
        raise UnreadableSubmission(f"{shown(path.name)} is not a regular file (links are not followed)") from None
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8):]
        notes.append("byte-order mark removed")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableSubmission(f"not UTF-8 text (byte {exc.start}); the file is not a saved notebook") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise UnreadableSubmission(f"not valid notebook JSON: {str(exc)[:120]}") from None
    if safefs.deeper_than(data, safefs.MAX_JSON_DEPTH):
        raise UnreadableSubmission(f"the notebook's JSON nests deeper than {safefs.MAX_JSON_DEPTH} levels")
    data, surrogates = without_lone_surrogates(data)
    if surrogates:
        notes.append(f"{surrogates} lone surrogate escape(s) replaced by U+FFFD")
    if not isinstance(data, dict) or "cells" not in data and "worksheets" not in data:
        raise UnreadableSubmission("JSON file is not a notebook (no cells)")
    major = data.get("nbformat")
    if major != 4:
        raise UnreadableSubmission(
            f"nbformat {str(major)[:10]} notebooks are not supported; open it in Jupyter and save it again (nbformat 4)")
    cells = data.get("cells")
    if not isinstance(cells, list) or not all(isinstance(c, dict) for c in cells):
        raise UnreadableSubmission("notebook has no list of cells")
    notes += upgrade(data)
    try:
        nb = valid_notebook(data)
    except Exception as exc:
        # Outputs are never graded (the grader runs the notebook again): without them it may be valid.
        for cell in data["cells"]:
            if cell.get("outputs"):
                cell["outputs"] = []
        try:
            nb = valid_notebook(data)
        except Exception:
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise UnreadableSubmission(f"not a valid notebook: {message[:200]}") from None
        notes.append("saved outputs the notebook format does not allow were cleared")
    kernel = nb.metadata.get("kernelspec", {}).get("name") if isinstance(nb.metadata.get("kernelspec"), dict) else None
    if kernel != "python3":
        notes.append(f"kernel {str(kernel)[:40]!r} replaced by the lesson's python3 kernel" if kernel
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


class MatchLessonCells(NbGraderPreprocessor):
    """Match a submission's nbgrader cells to the lesson's, before nbgrader's OverwriteCells.

    A cell whose grade_id the lesson does not have (renamed mid-term, or pasted from another
    lesson) becomes a plain cell: OverwriteCells would strip only its grade_id, then crash on it.
    A solution cell the submission lacks (deleted, or added to the lesson after it was fetched)
    comes back as the release has it, unanswered: OverwriteCells re-adds a missing test cell after
    the cell before it in the lesson, and crashes when that cell is missing too.
    """

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict):
        info = resources["nbgrader"]
        with Gradebook(info["db_url"]) as gb:
            lesson = gb.find_notebook(info["notebook"], info["assignment"])
            solutions = {cell.name for cell in lesson.solution_cells}
            points = {cell.name: cell.max_score for cell in lesson.grade_cells}
            cells = [(cell.name, cell.cell_type, cell.source) for cell in lesson.source_cells]
        known = {name for name, *_ in cells}
        for cell in nb.cells:
            if "nbgrader" in cell.metadata and cell.metadata.nbgrader.get("grade_id") not in known:
                del cell.metadata["nbgrader"]

        def positions() -> dict[str, int]:
            return {cell.metadata.nbgrader.grade_id: i for i, cell in enumerate(nb.cells) if "nbgrader" in cell.metadata}

        previous = None  # where the lesson's previous nbgrader cell is in the submission
        for k, (name, cell_type, source) in enumerate(cells):
            where = positions()
            if name not in where and name in solutions:
                cell = nbformat.v4.new_code_cell(source) if cell_type == "code" else nbformat.v4.new_markdown_cell(source)
                cell.metadata["nbgrader"] = {"grade": name in points, "grade_id": name, "locked": False,
                                             "schema_version": 3, "solution": True}
                if name in points:  # a manually graded answer
                    cell.metadata.nbgrader["points"] = points[name]
                # after the lesson's previous cell, else before its next one (so after the setup cells)
                following = [where[later] for later, *_ in cells[k + 1:] if later in where]
                nb.cells.insert(previous + 1 if previous is not None else (following or [len(nb.cells)])[0], cell)
                where = positions()
            previous = where.get(name, previous)
        return nb, resources


def restore_by_id(nb: NotebookNode, lesson: NotebookNode) -> int:
    """Give each cell that lost its nbgrader metadata the lesson's, found by cell id; return how many.

    Only cells with none get any, and only grade ids the notebook does not hold already, so
    nothing a student kept is overridden: nbgrader's checksum restore (OverwriteCells) then
    puts back the source of locked and test cells, as for any submission.
    """
    by_id = {cell.get("id"): cell.metadata["nbgrader"] for cell in lesson.cells if "nbgrader" in cell.metadata}
    present = {cell.metadata["nbgrader"].get("grade_id") for cell in nb.cells if "nbgrader" in cell.metadata}
    restored = 0
    for cell in nb.cells:
        metadata = by_id.get(cell.get("id"))
        if metadata is None or "nbgrader" in cell.metadata or metadata.get("grade_id") in present:
            continue
        cell.metadata["nbgrader"] = copy.deepcopy(metadata)
        present.add(metadata.get("grade_id"))
        restored += 1
    return restored


def name_readded_cells(nb: NotebookNode, present: set[str]) -> set[str]:
    """The grade ids of the test cells nbgrader re-added to a submission that lacked them, each
    given a cell id (nbgrader adds them without one)."""
    ids = {cell.get("id") for cell in nb.cells}
    readded = {grade_id: cell for grade_id, cell in cells_by_grade_id(nb).items() if grade_id not in present}
    for cell in readded.values():
        if not cell.get("id"):
            cell["id"] = next(f"restored-{n}" for n in range(len(ids) + 1) if f"restored-{n}" not in ids)
            ids.add(cell["id"])
    return set(readded)


def sanitize(course: Course, lesson: str, notebook_name: str, student: str,
             nb: NotebookNode) -> tuple[NotebookNode, list[str], set[str]]:
    """Run nbgrader's own autograde sanitizers, then ours, against the gradebook. Returns the
    notebook, what was restored (for every row), and the test cells nbgrader had to re-add."""
    notes = []
    # The lesson's source carries the ids and metadata its release and gradebook were made from.
    restored = restore_by_id(nb, nbformat.read(course.source / lesson / f"{notebook_name}.ipynb", as_version=4))
    if restored:
        notes.append(f"nbgrader metadata of {restored} cell(s) restored from the lesson by cell id")
    present = set(cells_by_grade_id(nb))
    resources = ResourcesDict()
    resources["nbgrader"] = {"db_url": course.db_url, "assignment": lesson, "notebook": notebook_name,
                             "student": student}
    config = course.nbgrader_config()
    for preprocessor in (ClearOutput, DeduplicateIds, OverwriteKernelspec, MatchLessonCells, OverwriteCells,
                         CheckCellMetadata, StripExecutionMetadata):
        try:
            nb, resources = preprocessor(config=config).preprocess(nb, resources)
        except KeyError as exc:
            if preprocessor is not OverwriteCells:
                raise
            # nbgrader puts a deleted test cell back after the lesson's cell before it, which is gone too
            raise UnreadableSubmission(f"the lesson's cell {shown(str(exc.args[0])[:60])} is missing (deleted, or its "
                                       "nbgrader metadata and cell id both lost), so the test cells after it cannot be "
                                       "put back; copy it from the released notebook") from None
    nb = nbformat.from_dict(nb)  # nbgrader adds cells as plain dicts
    nb.metadata.pop("papermill", None)
    return nb, notes, name_readded_cells(nb, present)
