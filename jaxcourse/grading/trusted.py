"""Running the instructor's own notebooks and judging them: what grading, the mutation check
and the in-process runner share.

Nothing here imports nbgrader, papermill or nbclient, so `jaxcourse.inprocess` works on hosts
that have only nbformat and IPython.
"""
from __future__ import annotations

import copy
import hashlib
import os
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

from ..course import Course, CourseError
from ..run.runner import KERNEL_DIR
from ..run.supervise import Execution, Executor
from ..run.platforms import TABLE
from .score import Status, check_records, inert_output_metadata, receipt_of, score_cell


def instrument(nb: NotebookNode) -> NotebookNode:
    """The notebook's code cells between the grader's prelude (check exporters) and receipt cells.

    Markdown and raw cells never run, so they are not sent: a notebook padded with 10^5 of them
    costs the sandbox nothing."""
    sent = copy.deepcopy(NotebookNode({**nb, "cells": []}))
    prelude = nbformat.v4.new_code_cell((KERNEL_DIR / "prelude.py").read_text(), id="jaxcourse-prelude")
    receipt = nbformat.v4.new_code_cell((KERNEL_DIR / "receipt.py").read_text(), id="jaxcourse-receipt")
    sent.cells = [prelude, *(copy.deepcopy(cell) for cell in nb.cells if cell.cell_type == "code"), receipt]
    return sent


def is_valid(nb: NotebookNode) -> bool:
    """Whether a notebook the sandbox wrote back has the format's shape, so reading it cannot fail."""
    try:
        nbformat.validate(nb)
    except Exception:  # whatever the failure, it is not what the runner writes
        return False
    return True


def run(nb: NotebookNode, execute: Executor) -> tuple[Execution, NotebookNode | None, dict | None, str]:
    """Execute an instrumented copy of `nb`; return outputs mapped onto `nb`'s own cells.

    The executed file comes from inside the sandbox, so only its outputs are trusted, and only
    when its cells still match what was sent; otherwise the whole run counts as tampered.
    """
    sent = instrument(nb)
    execution = execute(sent)
    back = execution.notebook
    if back is None:
        return execution, None, None, ""
    if len(back.cells) != len(sent.cells) or any(
            a.get("source") != b.get("source") for a, b in zip(back.cells, sent.cells)) or not is_valid(back):
        return execution, None, None, "the executed notebook came back altered"
    inert_output_metadata(back)  # autograded/ is opened in the formgrader
    merged = copy.deepcopy(nb)
    for ours, theirs in zip((cell for cell in merged.cells if cell.cell_type == "code"), back.cells[1:-1]):
        ours.outputs = theirs.get("outputs", [])
        ours.execution_count = theirs.get("execution_count")
        for key in ("papermill", "jaxcourse_timeout"):
            if key in theirs.get("metadata", {}):
                ours.metadata[key] = theirs.metadata[key]
    return execution, merged, receipt_of(back.cells[-1]), ""


def interrupted_by(execution: Execution) -> tuple[Status, str] | None:
    """How a run that ended early explains the cells it never finished."""
    if not execution.fatal:
        return None
    return (Status.TIMEOUT if execution.timed_out else Status.ERROR, f"the run stopped: {execution.fatal}")


def lesson_env(course: Course, lesson: str, platform: str) -> dict[str, str]:
    """On cpu, as many virtual devices as the lesson declares it needs."""
    return TABLE[platform].lesson_env(course.info(lesson).devices)


def script_env(course: Course, lesson: str, platform: str) -> dict[str, str]:
    """This process's environment for one of the lesson's plain Python programs: the platform
    and devices the grader would give it, and figures that are never shown."""
    return {**os.environ, "JAX_PLATFORMS": TABLE[platform].jax_platforms, "MPLBACKEND": "Agg",
            **lesson_env(course, lesson, platform)}


def cells_by_grade_id(nb: NotebookNode) -> dict[str, NotebookNode]:
    cells = {}
    for cell in nb.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id and cell.metadata.nbgrader.get("grade") and grade_id not in cells:
            cells[grade_id] = cell
    return cells


PACKAGE = Path(__file__).resolve().parents[1]  # all of jaxcourse


def code_digest(package: Path = PACKAGE) -> bytes:
    """A digest of every Python file of the grader, in every subfolder (a module moved into a
    package still counts), with its path."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.digest()


def source_hash(course: Course, lesson: str) -> str:
    """Identifies the expected values: the lesson's source and the grader code that judges it."""
    return hashlib.sha256(course.lesson_notebook(lesson).read_bytes() + code_digest()).hexdigest()


def solution_failures(platform: str, execution: Execution, merged: NotebookNode,
                      receipt: dict | None) -> tuple[list[tuple[str, str]], dict]:
    """Each graded cell of a run of the instructor's solution that does not pass, as (where,
    why), and the hidden-check exports of those that do: the expected values."""
    failures, expected = [], {}
    for grade_id, cell in cells_by_grade_id(merged).items():
        if cell.metadata.nbgrader.get("solution"):
            failures.append((grade_id, "manually graded cells are not supported by the autograder"))
            continue
        result = score_cell(grade_id, 0, cell, None, interrupted_by(execution))
        if result.status != Status.OK:
            failures.append((grade_id, f"{result.status}: {result.detail}"))
            continue
        records = check_records(cell)
        if not records:
            failures.append((grade_id, "exports no hidden check, so its grade could be forged"))
        expected[grade_id] = {r["name"]: {"value": r["value"], "options": r.get("options") or {}} for r in records}
    if receipt is None or receipt.get("backend") != platform:
        failures.append(("receipt", f"ran on {receipt and receipt.get('backend')}, requested {platform}"))
    return failures, expected


def judge_solution(course: Course, lesson: str, platform: str, execution: Execution,
                   merged: NotebookNode | None, receipt: dict | None, problem: str) -> dict:
    """The expected values from one run of the instructor's solution notebook.

    Raises CourseError unless every test cell passes and exports at least one hidden check.
    """
    if merged is None:
        why = problem or execution.fatal or "no notebook came back"
        last = execution.stderr_tail.strip()[-1000:]  # the instructor's own run: bwrap's or the runner's words
        raise CourseError(f"{lesson}: the solution notebook did not run: {why}" + (f"\n  its last output:\n{last}" if last else ""))
    failures, expected = solution_failures(platform, execution, merged, receipt)
    if failures:
        raise CourseError(f"{lesson}: the instructor solution does not pass its own tests:\n  "
                          + "\n  ".join(f"{where}: {why}" for where, why in failures))
    return {"source_hash": source_hash(course, lesson), "platform": platform,
            "receipt": receipt, "checks": expected, "notebook": merged}
