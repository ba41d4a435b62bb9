"""Prove that a lesson's hidden tests reject each of its mutants, all in one sandboxed kernel.

The solution notebook runs once, followed by a device receipt: that part is the lesson's
trusted run, and its exports are kept as the expected values. Then, for each mutant, the cells from the solution cell it
replaces through the last test cell it must fail run again with the mutant's source, and
once more with the solution's, which restores the kernel's state for the next mutant (the
test cells of that restore run once per group of mutants of the same cell). The grader's
own scorer judges every re-run test cell against the instructor's expected values.
"""
from __future__ import annotations

import copy
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbformat.notebooknode import NotebookNode

from . import fabricate
from ..course import Course, CourseError
from ..grading.expected import current_expected, keep_expected
from ..grading.options import Options
from ..grading.score import CellResult, Status, receipt_of, score_cell
from ..grading.trusted import Executor, interrupted_by, judge_solution, run
from ..run.bubblewrap import CompilationCache
from ..run.execute import Sandbox
from ..run.runner import KERNEL_DIR
from ..run.supervise import Execution

SOLUTION_RECEIPT_ID = "jaxcourse-solution-receipt"


@dataclass
class MutantVerdict:
    mutant: fabricate.Mutant
    with_mutant: dict[str, CellResult] = field(default_factory=dict)   # test cells re-run with the mutant
    restored: dict[str, CellResult] = field(default_factory=dict)      # the same cells with the solution back

    def problems(self) -> list[str]:
        """Why this mutant's check does not hold; empty when its tests reject it and only it."""
        found = []
        for grade_id, result in self.with_mutant.items():
            if grade_id in self.mutant.fails and (result.status == Status.OK or result.points):
                found.append(f"{self.mutant.name}: {grade_id} accepted the mutant ({result.detail})")
            elif grade_id not in self.mutant.fails and result.status != Status.OK:
                found.append(f"{self.mutant.name}: {grade_id} should still pass but got {result.status}: {result.detail}")
        for grade_id, result in self.restored.items():
            if result.status != Status.OK:  # a dead kernel or leaked state would void every later verdict
                found.append(f"{self.mutant.name}: {grade_id} failed after restoring the solution: {result.detail}")
        return found


def is_test_cell(cell: NotebookNode) -> bool:
    """An autograded test cell: graded, and not a manually graded answer."""
    meta = cell.get("metadata", {}).get("nbgrader", {})
    return bool(meta.get("grade")) and not meta.get("solution")


def grade_positions(source: NotebookNode) -> dict[str, int]:
    return {cell.metadata.nbgrader["grade_id"]: i for i, cell in enumerate(source.cells)
            if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")}


def span_problem(position: dict[str, int], mutant: fabricate.Mutant) -> str | None:
    """Why a mutant's header does not fit the lesson's cells, or None."""
    unknown = [g for g in (mutant.replaces, *mutant.fails) if g not in position]
    if unknown or not mutant.fails:
        return f"mutant {mutant.name}: no cell {unknown} in {mutant.lesson}, or no '# fails:' cell"
    if max(position[g] for g in mutant.fails) < position[mutant.replaces]:
        return f"mutant {mutant.name}: the cells it fails come before the cell it replaces"
    return None


def usable_mutants(source: NotebookNode, mutants: list[fabricate.Mutant]
                   ) -> tuple[list[fabricate.Mutant], dict[str, str]]:
    """The mutants whose headers fit `source`, and why each other one does not (by name)."""
    position = grade_positions(source)
    problems = {m.name: problem for m in mutants if (problem := span_problem(position, m))}
    return [m for m in mutants if m.name not in problems], problems


def mutant_spans(source: NotebookNode, mutants: list[fabricate.Mutant]) -> list[tuple[int, int]]:
    """Each mutant's span in `source`: the position of the cell it replaces, and of the last cell it fails."""
    position = grade_positions(source)
    spans = []
    for mutant in mutants:
        problem = span_problem(position, mutant)
        if problem:
            raise CourseError(problem)
        spans.append((position[mutant.replaces], max(position[g] for g in mutant.fails)))
    return spans


def mutation_notebook(source: NotebookNode, mutants: list[fabricate.Mutant]
                      ) -> tuple[NotebookNode, list[tuple[fabricate.Mutant, list[int], list[int]]]]:
    """The solution and a receipt, then each mutant's span twice (mutated, restored); and where
    each re-run test cell landed, in the order of `mutants`.

    Mutants of the same solution cell run one after another, shortest span first. Between two
    of them the restore re-runs the span's other cells but not its test cells: the next
    mutant's span re-runs all of those anyway. The group's last restore runs them, and its
    results are every member's `restored` verdict, so a mutant that broke the kernel or leaked
    state voids its whole group.
    """
    spans = mutant_spans(source, mutants)
    nb = copy.deepcopy(source)
    nb.cells.append(nbformat.v4.new_code_cell((KERNEL_DIR / "receipt.py").read_text(), id=SOLUTION_RECEIPT_ID))
    order = sorted(range(len(mutants)), key=lambda k: spans[k])
    mutated_at: dict[int, list[int]] = {}
    restored_at: dict[int, list[int]] = {}
    group: list[int] = []
    for turn, number in enumerate(order):
        (start, stop), mutant = spans[number], mutants[number]
        group.append(number)
        last_of_group = turn + 1 == len(order) or spans[order[turn + 1]][0] != start
        for copy_kind in ("mutant", "restored"):
            at = []
            for offset, cell in enumerate(source.cells[start:stop + 1]):
                if copy_kind == "restored" and not last_of_group and is_test_cell(cell):
                    continue
                cell = copy.deepcopy(cell)
                cell.id = f"{cell.get('id', 'cell')}-{copy_kind}-{number}"[:64]
                if offset == 0 and copy_kind == "mutant":
                    cell.source = mutant.source
                if is_test_cell(cell):
                    at.append(len(nb.cells))
                nb.cells.append(cell)
            (mutated_at if copy_kind == "mutant" else restored_at)[number] = at
        if last_of_group:
            for member in group:
                restored_at[member] = restored_at[number]
            group = []
    return nb, [(mutant, mutated_at[k], restored_at[k]) for k, mutant in enumerate(mutants)]


@dataclass
class MutationRun:
    """One run of a lesson's mutation notebook, its solution part and its receipt mapped out."""
    execution: Execution
    merged: NotebookNode | None       # the whole notebook's outputs, None when it did not run
    solution: NotebookNode | None     # the solution part alone, as a trusted run leaves it
    receipt: dict | None
    problem: str
    plan: list[tuple[fabricate.Mutant, list[int], list[int]]]


def run_mutation_notebook(course: Course, lesson: str, execute: Executor,
                          mutants: list[fabricate.Mutant] | None = None) -> MutationRun:
    """Execute `lesson`'s mutation notebook with `execute` (a sandbox, or this process), for
    `mutants` (default: all of the lesson's)."""
    source = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    nb, plan = mutation_notebook(source, fabricate.mutants(course, lesson) if mutants is None else mutants)
    execution, merged, _, problem = run(nb, execute)
    solved = len(source.cells)
    solution = None if merged is None else NotebookNode({**merged, "cells": merged.cells[:solved]})
    receipt = None if merged is None else receipt_of(merged.cells[solved])
    return MutationRun(execution, merged, solution, receipt, problem, plan)


def judge_mutants(done: MutationRun, expected: dict) -> list[MutantVerdict]:
    """Each mutant's re-run test cells, scored against the `expected` check values."""
    stopped = interrupted_by(done.execution)
    verdicts = []
    for mutant, mutated_at, restored_at in done.plan:
        verdict = MutantVerdict(mutant)
        for positions, into in ((mutated_at, verdict.with_mutant), (restored_at, verdict.restored)):
            for index in positions:
                cell = done.merged.cells[index]
                grade_id = cell.metadata.nbgrader.grade_id
                into[grade_id] = score_cell(grade_id, 1.0, cell, expected.get(grade_id, {}), stopped)
        verdicts.append(verdict)
    return verdicts


def check_mutants(course: Course, lesson: str, options: Options,
                  mutants: list[fabricate.Mutant] | None = None) -> list[MutantVerdict]:
    """Each mutant of `lesson` (or each of `mutants`), judged by the lesson's hidden tests in one
    sandboxed kernel.

    The run's solution part is judged like a trusted run (a CourseError if the solution fails
    its own tests) and, unless current ones are stored, kept as the lesson's expected values:
    grading after this needs no trusted run of its own.
    """
    # The re-run cells compile the same programs again (the restored solution, the tests a mutant does
    # not touch): a private cache, thrown away after, serves them from disk (capstone-01: 141 s -> 103 s).
    with tempfile.TemporaryDirectory(prefix="jaxcourse-mutants-cache-") as folder:
        cache = CompilationCache(Path(folder), writable=True) if options.sandbox else None
        done = run_mutation_notebook(course, lesson, Sandbox(options.run_settings(course, lesson).spec(0, cache)).run,
                                     mutants)
    trusted = judge_solution(course, lesson, options.platform, done.execution, done.solution, done.receipt,
                             done.problem)
    expected = (current_expected(course, lesson, options) or keep_expected(course, lesson, options, trusted))["checks"]
    return judge_mutants(done, expected)
