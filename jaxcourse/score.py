"""Score graded cells by comparing exported check values with the instructor's, in this process.

Nothing in a student's kernel decides a grade: values arrive as inert JSON, are decoded
here without pickle, and are compared against values from the trusted solution run.
"""
from __future__ import annotations

import base64
from dataclasses import dataclass

import numpy as np
from nbformat.notebooknode import NotebookNode

CHECK_MIME = "application/vnd.jaxcourse.check+json"
RECEIPT_MIME = "application/vnd.jaxcourse.receipt+json"
DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-6
STATUSES = ("ok", "failed", "error", "timeout", "missing", "tampered", "platform-mismatch")


@dataclass
class CellResult:
    grade_id: str
    points: float
    max_points: float
    status: str
    detail: str


class BadRecord(ValueError):
    pass


def check_records(cell: NotebookNode) -> list[dict]:
    """The check exports a cell produced, in order."""
    records = []
    for output in cell.get("outputs", []):
        data = output.get("data", {}) if output.get("output_type") == "display_data" else {}
        record = data.get(CHECK_MIME)
        if isinstance(record, dict) and isinstance(record.get("name"), str):
            records.append(record)
    return records


def receipt_of(cell: NotebookNode | None) -> dict | None:
    if cell is None:
        return None
    for output in cell.get("outputs", []):
        data = output.get("data", {}) if output.get("output_type") == "display_data" else {}
        if isinstance(data.get(RECEIPT_MIME), dict):
            return dict(data[RECEIPT_MIME])
    return None


def decode_array(payload: dict) -> np.ndarray:
    try:
        dtype = np.dtype(payload["dtype"])
    except TypeError:
        import ml_dtypes  # bfloat16 and friends; registers their names with numpy
        dtype = np.dtype(getattr(ml_dtypes, payload["dtype"]))
    if dtype.hasobject:
        raise BadRecord("object arrays are not exportable")
    shape = tuple(int(n) for n in payload["shape"])
    data = base64.b64decode(payload["data"], validate=True)
    count = int(np.prod(shape)) if shape else 1
    if len(data) != count * dtype.itemsize:
        raise BadRecord("array data does not match its shape")
    return np.frombuffer(data, dtype=dtype).reshape(shape)


def compare(actual: dict, expected: dict, options: dict, where: str = "value") -> str | None:
    """None when `actual` matches `expected`, else a reason that reveals no expected values."""
    kind, want = actual.get("kind"), expected.get("kind")
    if kind == "unsupported":
        return f"{where}: a {actual.get('type')} cannot be checked; return an array or number"
    if kind != want:
        return f"{where}: got a {kind}, expected a {want}"
    if kind == "none":
        return None
    if kind == "str":
        return None if actual.get("value") == expected.get("value") else f"{where}: wrong text"
    if kind == "raised":
        if expected.get("type") is None:
            return None if actual.get("type") is None else f"{where}: raised {actual.get('type')}, expected no error"
        if actual.get("type") is None:
            return f"{where}: raised nothing, expected {expected['type']}"
        mro = actual.get("mro") or []
        return None if expected["type"] in mro else f"{where}: raised {actual.get('type')}, expected {expected['type']}"
    if kind == "seq":
        got, exp = actual.get("items", []), expected.get("items", [])
        if len(got) != len(exp):
            return f"{where}: {len(got)} items, expected {len(exp)}"
        for i, (a, e) in enumerate(zip(got, exp)):
            reason = compare(a, e, options, f"{where}[{i}]")
            if reason:
                return reason
        return None
    if kind == "map":
        got, exp = actual.get("items", {}), expected.get("items", {})
        if sorted(got) != sorted(exp):
            return f"{where}: keys {sorted(got)}, expected {sorted(exp)}"
        for key in exp:
            reason = compare(got[key], exp[key], options, f"{where}[{key!r}]")
            if reason:
                return reason
        return None
    if kind == "array":
        got, exp = decode_array(actual), decode_array(expected)
        if got.shape != exp.shape:
            return f"{where}: shape {got.shape}, expected {exp.shape}"
        if options.get("check_dtype", True) and got.dtype != exp.dtype:
            return f"{where}: dtype {got.dtype}, expected {exp.dtype}"
        if np.issubdtype(exp.dtype, np.inexact) or np.issubdtype(got.dtype, np.inexact):
            rtol = DEFAULT_RTOL if options.get("rtol") is None else float(options["rtol"])
            atol = DEFAULT_ATOL if options.get("atol") is None else float(options["atol"])
            close = np.allclose(got.astype(np.float64), exp.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True) \
                if not np.iscomplexobj(exp) else np.allclose(got, exp, rtol=rtol, atol=atol, equal_nan=True)
            return None if close else f"{where}: values differ beyond rtol={rtol:g}, atol={atol:g}"
        return None if np.array_equal(got, exp) else f"{where}: values differ"
    return f"{where}: unknown export kind {kind!r}"


def error_of(cell: NotebookNode) -> tuple[str, str] | None:
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            return str(output.get("ename", "Error")), str(output.get("evalue", ""))
    return None


def one_line(text: str, limit: int = 240) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def score_cell(grade_id: str, max_points: float, cell: NotebookNode | None, expected: dict[str, dict] | None,
               interrupted: tuple[str, str] | None = None) -> CellResult:
    """Score one test cell.

    `expected` maps each check name to the instructor's record; None scores the instructor's
    own run, where there is nothing to compare yet. `interrupted` is the (status, detail) of a
    run that ended early (timeout, dead kernel, limit); it explains cells left without checks.
    """
    def result(status: str, detail: str, points: float = 0.0) -> CellResult:
        return CellResult(grade_id, points, max_points, status, one_line(detail))

    stopped = interrupted or ("error", "the cell did not run")
    if cell is None:
        return result(*stopped)
    if cell.get("metadata", {}).get("jaxcourse_timeout"):
        return result("timeout", f"cell ran longer than {cell.metadata['jaxcourse_timeout']}s")
    records = check_records(cell)
    names = [r["name"] for r in records]
    extra = sorted({n for n in names if (expected is not None and n not in expected) or names.count(n) > 1})
    if extra:
        return result("tampered", f"unexpected or repeated check exports: {', '.join(extra)[:120]}")
    error = error_of(cell)
    if error:
        ename, evalue = error
        return result("failed" if ename == "AssertionError" else "error",
                      f"{ename}: {evalue}" if evalue else ename)
    by_name = {r["name"]: r for r in records}
    if interrupted and (cell.get("execution_count") is None or any(n not in by_name for n in expected or {})):
        return result(*interrupted)
    for name, want in (expected or {}).items():
        got = by_name.get(name)
        if got is None:
            return result("failed", f"check {name!r} was not reported")
        try:
            reason = compare(got.get("value", {}), want["value"], want.get("options") or {}, name)
        except (BadRecord, KeyError, TypeError, ValueError) as exc:
            reason = f"{name}: unreadable export ({type(exc).__name__})"
        if reason:
            return result("failed", reason)
    return result("ok", f"{len(expected or records)} hidden check(s) passed", max_points)
