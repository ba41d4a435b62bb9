"""Reading the errors an executed notebook shows, and which of them an unfinished release may show."""
from __future__ import annotations

import re

import nbformat

ANSI = re.compile(r"\x1b\[[0-9;]*m")
FRAME = re.compile(r"(?:Cell|Input) In ?\[(\d+)\]")


def error_of(cell) -> dict | None:
    return next((out for out in cell.get("outputs", []) if out.output_type == "error"), None)


def describe_error(cell, error: dict) -> str:
    trace = ANSI.sub("", "\n".join(error.get("traceback", [])))
    return f"cell {cell.get('id')}: {error.ename}: {error.evalue}\n" + "\n".join(trace.splitlines()[-12:])


def raised_by_unfinished_solution(nb: nbformat.NotebookNode, error: dict) -> bool:
    """A NotImplementedError whose innermost frame is a solution cell's placeholder.

    Some example cells call the student's function (arrays-03's challenge-report calls
    evaluate()); in the unfinished release that is the exercise failing, not the example.
    """
    if error.ename != "NotImplementedError":
        return False
    frames = FRAME.findall(ANSI.sub("", "\n".join(error.get("traceback", []))))
    solutions = {cell.get("execution_count") for cell in nb.cells
                 if cell.cell_type == "code" and cell.metadata.get("nbgrader", {}).get("solution")}
    return bool(frames) and int(frames[-1]) in solutions


def unfinished_release_problems(nb: nbformat.NotebookNode) -> list[str]:
    """Errors in a run of the untouched release that are not the unfinished exercises failing.

    Solution cells may raise only NotImplementedError; test cells may fail; every other cell
    must run, unless it calls an unfinished solution.
    """
    problems = []
    for cell in nb.cells:
        error = error_of(cell) if cell.cell_type == "code" else None
        if error is None:
            continue
        nbgrader = cell.metadata.get("nbgrader", {})
        if nbgrader.get("solution"):
            if error.ename != "NotImplementedError":
                problems.append(f"solution {describe_error(cell, error)}\n(an unfinished solution cell "
                                "should only raise NotImplementedError)")
        elif not nbgrader.get("grade") and not raised_by_unfinished_solution(nb, error):
            problems.append(describe_error(cell, error))
    return problems
