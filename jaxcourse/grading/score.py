"""Score graded cells by comparing exported check values with the instructor's, in this process.

Nothing in a student's kernel decides a grade: values arrive as inert JSON, are checked
against a strict shape here, decoded without pickle, and compared against values from the
trusted solution run. A record that does not fit fails its cell; it never stops the grader.
"""
from __future__ import annotations

import base64
import functools
import importlib
import math
import re
import sys
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
from nbformat.notebooknode import NotebookNode

CHECK_MIME = "application/vnd.jaxcourse.check+json"
RECEIPT_MIME = "application/vnd.jaxcourse.receipt+json"
MAX_DEPTH = 8
MAX_ARRAY_BYTES = 64 * 2**20
MAX_TEXT = 10000
MAX_NAME = 200             # a check's name or an exception's class name
MAX_CHECKS = 1000          # check exports read from one cell (a lesson's test cell makes a handful)
# Floats compare to within this many units of the expected dtype's precision by default.
DEFAULT_ULPS = 8
RECEIPT_FIELDS = {"backend": str, "device_kinds": list, "device_count": int, "jax": str, "jaxlib": str,
                  "python": str, "process_index": int, "process_count": int}


class Status(StrEnum):
    OK = "ok"
    FAILED = "failed"                    # a check's value is wrong, or an assert failed
    ERROR = "error"                      # the cell raised, or the notebook could not run
    TIMEOUT = "timeout"
    MISSING = "missing"                  # the notebook was not submitted
    TAMPERED = "tampered"                # forged or malformed check exports, an altered run
    PLATFORM_MISMATCH = "platform-mismatch"
    INTERNAL_ERROR = "internal-error"    # a grader bug or infrastructure failure; retried next run


STATUSES = tuple(s.value for s in Status)


@dataclass
class CellResult:
    grade_id: str
    points: float
    max_points: float
    status: str
    detail: str


class BadRecord(ValueError):
    pass


# C0/C1 controls and the bidirectional overrides that reorder text in terminals and viewers.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def inert(text: object, limit: int = 240) -> str:
    """Student-controlled text made safe to print or store: no control characters, one line,
    bounded, and writable as UTF-8 (a lone surrogate, as in a file name of other bytes, becomes U+FFFD)."""
    text = str(text).encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    line = " ".join(CONTROL.sub("", text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"



# ---------------------------------------------------------------- reading exports

def _check_value(value: object, depth: int = 0) -> None:
    """Raise BadRecord unless `value` is an export of the prelude's exact shape."""
    if not isinstance(value, dict) or depth > MAX_DEPTH:
        raise BadRecord("not an export")
    kind = value.get("kind")
    if kind == "none" or kind == "unsupported":
        return
    if kind == "str":
        if not isinstance(value.get("value"), str) or len(value["value"]) > MAX_TEXT:
            raise BadRecord("bad text export")
    elif kind == "seq":
        if not isinstance(value.get("items"), list):
            raise BadRecord("bad sequence export")
        for item in value["items"]:
            _check_value(item, depth + 1)
    elif kind == "map":
        if not isinstance(value.get("items"), dict):
            raise BadRecord("bad mapping export")
        for item in value["items"].values():
            _check_value(item, depth + 1)
    elif kind == "raised":
        if not (value.get("type") is None or isinstance(value.get("type"), str) and len(value["type"]) <= MAX_NAME) or not (
                isinstance(value.get("message", ""), str) and len(value.get("message", "")) <= MAX_TEXT):
            raise BadRecord("bad exception export")
    elif kind == "array":
        if not (isinstance(value.get("dtype"), str) and isinstance(value.get("data"), str)
                and isinstance(value.get("shape"), list) and len(value["shape"]) <= 32
                and all(type(n) is int and 0 <= n for n in value["shape"])):
            raise BadRecord("bad array export")
        if value.get("placement") is not None and not isinstance(value["placement"], dict):
            raise BadRecord("bad placement export")
    else:
        raise BadRecord("unknown export kind")


def check_records(cell: NotebookNode) -> list[dict]:
    """The well-formed check exports a cell produced, in order; BadRecord if any is malformed."""
    records = []
    for output in cell.get("outputs", []):
        data = output.get("data", {}) if output.get("output_type") == "display_data" else {}
        if not isinstance(data, dict) or CHECK_MIME not in data:
            continue
        if len(records) == MAX_CHECKS:
            raise BadRecord(f"more than {MAX_CHECKS} check exports in one cell")
        record = data[CHECK_MIME]
        if not (isinstance(record, dict) and isinstance(record.get("name"), str) and len(record["name"]) <= MAX_NAME
                and isinstance(record.get("options", {}), dict)):
            raise BadRecord("a malformed check export")
        _check_value(record.get("value"))
        records.append(record)
    return records


def receipt_of(cell: NotebookNode | None) -> dict | None:
    """The device receipt, with only its known fields, each of its own type and made inert."""
    if cell is None:
        return None
    for output in cell.get("outputs", []):
        data = output.get("data", {}) if output.get("output_type") == "display_data" else {}
        raw = data.get(RECEIPT_MIME) if isinstance(data, dict) else None
        if isinstance(raw, dict):
            receipt = {}
            for key, kind in RECEIPT_FIELDS.items():
                value = raw.get(key)
                if kind is str and isinstance(value, str):
                    receipt[key] = inert(value, 80)
                elif kind is int and type(value) is int:
                    receipt[key] = value
                elif kind is list and isinstance(value, list):
                    receipt[key] = [inert(v, 80) for v in value[:16]]
            return receipt
    return None


NUMPY_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float16", "float32", "float64", "float128", "complex64", "complex128", "complex256")
ML_DTYPES = ("bfloat16", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn", "float8_e3m4", "float8_e4m3",
             "float8_e4m3b11fnuz", "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2", "float8_e5m2fnuz",
             "float8_e8m0fnu", "int1", "int2", "int4", "uint1", "uint2", "uint4")


@functools.cache
def dtypes() -> dict[str, np.dtype]:
    """The dtypes an export may name: a fixed table, so a name from a submission is only ever a
    key here (never parsed by NumPy, never looked up as an attribute)."""
    import ml_dtypes  # bfloat16 and friends
    table = {}
    for name in NUMPY_DTYPES:
        try:
            table[name] = np.dtype(name)
        except TypeError:  # float128 where long double is float64
            pass
    table.update({name: np.dtype(getattr(ml_dtypes, name)) for name in ML_DTYPES if hasattr(ml_dtypes, name)})
    return table


def decode_array(payload: dict) -> np.ndarray:
    dtype = dtypes().get(payload["dtype"])
    if dtype is None:
        raise BadRecord(f"unknown dtype {inert(payload['dtype'], 40)!r}; only plain numeric arrays are exportable")
    shape = tuple(payload["shape"])
    count = int(np.prod(shape, dtype=object)) if shape else 1
    if count * dtype.itemsize > MAX_ARRAY_BYTES:
        raise BadRecord("array too large")
    data = base64.b64decode(payload["data"], validate=True)
    if len(data) != count * dtype.itemsize:
        raise BadRecord("array data does not match its shape")
    return np.frombuffer(data, dtype=dtype).reshape(shape)


# ---------------------------------------------------------------- comparing

def _is_float(dtype: np.dtype) -> bool:
    return np.issubdtype(dtype, np.inexact) or (dtype.type.__module__ == "ml_dtypes" and "int" not in dtype.name)


def _kind(dtype: np.dtype) -> str:
    """What check_dtype="kind" compares: signed and unsigned integers alike, every float alike."""
    if _is_float(dtype):
        return "complex" if np.issubdtype(dtype, np.complexfloating) else "float"
    return "integer" if dtype.kind in "iu" else dtype.kind


def _eps(dtype: np.dtype) -> float:
    if dtype.type.__module__ == "ml_dtypes":
        import ml_dtypes
        return float(ml_dtypes.finfo(dtype).eps)
    return float(np.finfo(dtype).eps)


def _tolerances(got: np.ndarray, exp: np.ndarray, options: dict) -> tuple[float, float]:
    """The instructor's tolerances, or a default from the expected dtype's precision (never the
    student's: a float4 answer must not widen its own tolerance).

    The default absolute tolerance scales with the largest expected magnitude, so a small exact
    value is never hidden under a fixed floor, and a scalar is compared relatively.
    """
    if options.get("rtol") is not None:
        rtol = float(options["rtol"])
    else:  # an integer or boolean answer is exact, whatever float type the student returned it in
        rtol = DEFAULT_ULPS * _eps(exp.dtype) if _is_float(exp.dtype) else 0.0
    if options.get("atol") is not None:
        atol = float(options["atol"])
    else:
        wide = exp.astype(np.complex128 if np.iscomplexobj(exp) else np.float64)
        finite = np.abs(wide[np.isfinite(wide)])
        atol = rtol * float(finite.max()) if finite.size else 0.0
    return rtol, atol


def _compare_arrays(actual: dict, expected: dict, options: dict, where: str) -> str | None:
    got, exp = decode_array(actual), decode_array(expected)
    if got.shape != exp.shape:
        return f"{where}: shape {got.shape}, expected {exp.shape}"
    check_dtype = options.get("check_dtype", True)
    if check_dtype == "kind":
        if _kind(got.dtype) != _kind(exp.dtype):
            return f"{where}: dtype {got.dtype}, expected one of the kind of {exp.dtype}"
    elif check_dtype and got.dtype != exp.dtype:
        return f"{where}: dtype {got.dtype}, expected {exp.dtype}"
    if options.get("check_placement") and actual.get("placement") != expected.get("placement"):
        return f"{where}: placed on other devices or sharded differently than expected"
    if not (_is_float(exp.dtype) or _is_float(got.dtype)):
        return None if np.array_equal(got, exp) else f"{where}: values differ"
    complex_ = np.iscomplexobj(got) or np.iscomplexobj(exp)
    wide = np.complex128 if complex_ else np.float64  # complex never silently drops its imaginary part
    rtol, atol = _tolerances(got, exp, options)
    close = np.allclose(got.astype(wide), exp.astype(wide), rtol=rtol, atol=atol, equal_nan=True)
    return None if close else f"{where}: values differ beyond rtol={rtol:g}, atol={atol:g}"


def instructor_exception(name: str) -> type | None:
    """The exception class a module-qualified name from the instructor's trusted run denotes,
    importing its module if need be; None if there is none. Never called with a submission's name."""
    parts = name.split(".")
    for split in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:split])
        module = sys.modules.get(module_name)
        if module is None:
            try:
                module = importlib.import_module(module_name)
            except Exception:  # not a module (a class's dotted qualname), or not importable here
                continue
        found = module
        for attribute in parts[split:]:
            found = getattr(found, attribute, None)
        return found if isinstance(found, type) and issubclass(found, BaseException) else None
    return None


def subclass_names(cls: type) -> set[str]:
    """The module-qualified names of `cls` and of every subclass of it this process has loaded:
    the table a submission's exception name is looked up in. The name is only ever a key here,
    so it can run nothing (no attribute lookup, no import)."""
    names, seen, stack = set(), set(), [cls]
    while stack:
        found = stack.pop()
        if found not in seen:
            seen.add(found)
            names.add(f"{found.__module__}.{found.__qualname__}")
            stack.extend(type.__subclasses__(found))
    return names


def raised_matches(actual: str, expected: str) -> bool:
    """The student's exception is the instructor's class or a subclass of it, as this process
    knows the classes: by module-qualified name (the same short name elsewhere is not it), and
    never by a class hierarchy the submission reports about itself."""
    if actual == expected:
        return True
    wanted = instructor_exception(expected)
    return wanted is not None and actual in subclass_names(wanted)


def message_limit(expected_message: object) -> int:
    """How long a message checked for fragments may be: one that lists every plausible value
    would hold any fragment, so a few times the instructor's own message, at least 160 characters."""
    return max(3 * len(expected_message), 160) if isinstance(expected_message, str) else 160


def compare(actual: dict, expected: dict, options: dict, where: str = "value") -> str | None:
    """None when `actual` matches `expected`, else a reason that reveals no expected values."""
    kind, want = actual.get("kind"), expected.get("kind")
    if kind == "unsupported":
        return f"{where}: a {inert(actual.get('type'), 60)} cannot be checked; return an array, number or string"
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
        if not raised_matches(actual["type"], expected["type"]):
            return f"{where}: raised {actual.get('type')}, expected {expected['type']}"
        fragments, message = options.get("contains") or [], actual.get("message")
        if fragments and not (isinstance(message, str) and all(str(f) in message for f in fragments)):
            return f"{where}: the {actual.get('type')} does not say in its message what the exercise asks it to name"
        if fragments and len(message) > message_limit(expected.get("message")):
            return f"{where}: the {actual.get('type')}'s message is too long to be checked; name what was asked, briefly"
        return None
    if kind == "seq":
        got, exp = actual["items"], expected["items"]
        if len(got) != len(exp):
            return f"{where}: {len(got)} items, expected {len(exp)}"
        for i, (a, e) in enumerate(zip(got, exp)):
            reason = compare(a, e, options, f"{where}[{i}]")
            if reason:
                return reason
        return None
    if kind == "map":
        got, exp = actual["items"], expected["items"]
        if sorted(got) != sorted(exp):
            return f"{where}: keys {inert(sorted(got), 120)}, expected {sorted(exp)}"
        for key in exp:
            reason = compare(got[key], exp[key], options, f"{where}[{key!r}]")
            if reason:
                return reason
        return None
    if kind == "array":
        return _compare_arrays(actual, expected, options, where)
    return f"{where}: unknown export kind {kind!r}"


def error_of(cell: NotebookNode) -> tuple[str, str] | None:
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            return inert(output.get("ename", "Error"), 80), inert(output.get("evalue", ""))
    return None


def score_cell(grade_id: str, max_points: float, cell: NotebookNode | None, expected: dict[str, dict] | None,
               interrupted: tuple[str, str] | None = None) -> CellResult:
    """Score one test cell.

    `expected` maps each check name to the instructor's record; None scores the instructor's
    own run, where there is nothing to compare yet. `interrupted` is the (status, detail) of a
    run that ended early (timeout, dead kernel, limit); it explains cells left without checks.
    """
    def result(status: str, detail: str, points: float = 0.0) -> CellResult:
        return CellResult(grade_id, points, max_points, str(status), inert(detail))

    stopped = interrupted or (Status.ERROR, "the cell did not run")
    if cell is None:
        return result(*stopped)
    if cell.get("metadata", {}).get("jaxcourse_timeout"):
        return result(Status.TIMEOUT, f"cell ran longer than {inert(cell.metadata['jaxcourse_timeout'], 20)}s")
    if expected is not None and not expected:
        return result(Status.ERROR, "the lesson has no hidden checks for this cell, so it cannot be graded")
    try:
        records = check_records(cell)
    except BadRecord as exc:
        return result(Status.TAMPERED, f"malformed check exports ({exc})")
    counts = Counter(r["name"] for r in records)
    extra = sorted(n for n, count in counts.items() if count > 1 or (expected is not None and n not in expected))
    if extra:
        return result(Status.TAMPERED, f"unexpected or repeated check exports: {inert(', '.join(extra[:10]), 120)}")
    error = error_of(cell)
    if error:
        ename, evalue = error
        return result(Status.FAILED if ename == "AssertionError" else Status.ERROR,
                      f"{ename}: {evalue}" if evalue else ename)
    by_name = {r["name"]: r for r in records}
    if interrupted and (cell.get("execution_count") is None or any(n not in by_name for n in expected or {})):
        return result(*interrupted)
    for name, want in (expected or {}).items():
        got = by_name.get(name)
        if got is None:
            return result(Status.FAILED, f"check {name!r} was not reported")
        try:
            reason = compare(got["value"], want["value"], want.get("options") or {}, name)
        except (BadRecord, ValueError, TypeError, KeyError, OverflowError, MemoryError) as exc:
            return result(Status.TAMPERED, f"{name}: unreadable export ({type(exc).__name__})")
        if reason:
            return result(Status.FAILED, reason)
    return result(Status.OK, f"{len(expected or records)} hidden check(s) passed", max_points)


def _size(value) -> bool:
    return type(value) in (int, float) and math.isfinite(value)


def numeric_sizes_only(metadata) -> dict:
    """An output's metadata reduced to numeric width and height, top-level or per MIME type.

    nbconvert's templates (and the formgrader's) write `width={{ value }}` into an unquoted HTML
    attribute, so any other value a submission leaves there is markup in whoever opens the page.
    """
    kept = {}
    for key, value in (metadata.items() if isinstance(metadata, dict) else ()):
        if key in ("width", "height") and _size(value):
            kept[key] = value
        elif isinstance(value, dict):
            sizes = {k: v for k, v in value.items() if k in ("width", "height") and _size(v)}
            if sizes:
                kept[key] = sizes
    return kept


def inert_output_metadata(nb: NotebookNode) -> NotebookNode:
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if "metadata" in output:
                output["metadata"] = NotebookNode(numeric_sizes_only(output["metadata"]))
    return nb
