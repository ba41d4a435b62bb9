"""The pure core, table-driven: no kernel, no sandbox run. `make check` runs these alone.

Comparing and decoding exports, scoring a cell, reading submissions, inert text, the sandbox
command line and environment, device binds, and reading what a sandbox leaves behind.
"""
import base64
import codecs
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import types

import nbformat
import numpy as np
import pytest

from conftest import nested_folders
from jaxcourse.grading.report import csv_row, feedback_notebook, spreadsheet_safe
from jaxcourse.grading.sanitize import UnreadableSubmission, read_submission
from jaxcourse.grading.score import CHECK_MIME, CellResult, Status, compare, decode_array, inert, receipt_of, score_cell
from jaxcourse.kernel import prelude
from jaxcourse.run import limits, safefs, supervise
from jaxcourse.run.bubblewrap import SandboxUnavailable, accelerator_nodes, bwrap_command, sandbox_env
from jaxcourse.run.execute import RunSettings
from jaxcourse.run.limits import Limits, Watchdog, device_mapped_bytes, tree_usage
from jaxcourse.run.platforms import worker_env
from jaxcourse.run.workdirs import RUNS_PREFIX, locked_run_folder, remove_abandoned_runs, runs_folder

pytestmark = pytest.mark.fast


def array(values, dtype):
    import ml_dtypes
    a = np.asarray(values, dtype=getattr(ml_dtypes, dtype) if dtype in ("bfloat16", "float4_e2m1fn") else dtype)
    return {"kind": "array", "dtype": str(a.dtype), "shape": list(a.shape),
            "data": base64.b64encode(a.tobytes()).decode()}


def raised(name=None, **more):
    return {"kind": "raised", "type": name, **more}


# ---------------------------------------------------------------- comparing exports

COMPARISONS = [
    # (what, actual, expected, options, matches)
    ("equal ints", array([1, 2], np.int32), array([1, 2], np.int32), {}, True),
    ("int differs", array([1, 3], np.int32), array([1, 2], np.int32), {}, False),
    ("dtype differs", array([1, 2], np.int64), array([1, 2], np.int32), {}, False),
    ("dtype ignored on request", array([1, 2], np.int64), array([1, 2], np.int32), {"check_dtype": False}, True),
    ("shape differs", array([[1, 2]], np.int32), array([1, 2], np.int32), {}, False),
    ("float32 within 8 ulp", array([1.0 + 2**-22], np.float32), array([1.0], np.float32), {}, True),
    ("float32 beyond 8 ulp", array([1.0 + 2**-18], np.float32), array([1.0], np.float32), {}, False),
    # No absolute 1e-6 floor: a small exact value is not hidden.
    ("small scalar kept", array(0.0, np.float32), array(5e-7, np.float32), {}, False),
    ("small entry beside a large one", array([1000.0, 1e-5], np.float32), array([1000.0, 0.0], np.float32), {}, True),
    ("bfloat16 within 8 ulp", array([1.0078125], "bfloat16"), array([1.0], "bfloat16"), {}, True),
    ("bfloat16 beyond 8 ulp", array([1.25], "bfloat16"), array([1.0], "bfloat16"), {}, False),
    ("instructor's tolerance", array([1.001], np.float32), array([1.0], np.float32), {"rtol": 1e-2}, True),
    # Complex never silently becomes float.
    ("complex vs real", array([1 + 1j], np.complex64), array([1.0], np.float32), {"check_dtype": False}, False),
    ("complex equal", array([1 + 2j], np.complex64), array([1 + 2j], np.complex64), {}, True),
    ("complex imag differs", array([1 + 2j], np.complex64), array([1 + 3j], np.complex64), {}, False),
    ("nan equals nan", array([np.nan], np.float32), array([np.nan], np.float32), {}, True),
    ("text", {"kind": "str", "value": "a"}, {"kind": "str", "value": "b"}, {}, False),
    ("none vs array", {"kind": "none"}, array([1], np.int32), {}, False),
    ("seq length", {"kind": "seq", "items": []}, {"kind": "seq", "items": [{"kind": "none"}]}, {}, False),
    ("map keys", {"kind": "map", "items": {"a": {"kind": "none"}}}, {"kind": "map", "items": {"b": {"kind": "none"}}}, {}, False),
    ("exception subclass", raised("builtins.UnicodeDecodeError"), raised("builtins.ValueError"), {}, True),
    ("jax error subclass", raised("jax.errors.TracerBoolConversionError"),
     raised("jax.errors.ConcretizationTypeError"), {}, True),
    # Matched by module and qualified name: the same short name elsewhere is not the same class.
    ("same short name", raised("mymod.ValueError"), raised("builtins.ValueError"), {}, False),
    # A hierarchy the submission reports about its own class is not believed.
    ("forged hierarchy", raised("__main__.Sub", mro=["__main__.Sub", "builtins.ValueError"]),
     raised("builtins.ValueError"), {}, False),
    ("a parent is not the child", raised("builtins.ValueError"), raised("builtins.UnicodeDecodeError"), {}, False),
    # An integer answer is exact whatever float type carries it; float4's coarse steps widen nothing.
    ("int answer as float", array([3.0, 1.0], np.float32), array([3, 1], np.int32), {"check_dtype": False}, True),
    ("int answer as float4 zeros", array([0.0, 0.0], "float4_e2m1fn"), array([3, 1], np.int32),
     {"check_dtype": False}, False),
    ("count off by one as float", array([4.0], np.float32), array([3], np.int32), {"check_dtype": False}, False),
    ("no exception", raised(), raised("builtins.ValueError"), {}, False),
    ("message names what it must", {**raised("builtins.ValueError"), "message": "12 values; (5, 3) needs 15"},
     raised("builtins.ValueError"), {"contains": ["12", "15"]}, True),
    ("message lacks a name", {**raised("builtins.ValueError"), "message": "cannot arrange 6 values as (2, 4)"},
     raised("builtins.ValueError"), {"contains": ["12", "15"]}, False),
    ("message not exported", raised("builtins.ValueError"), raised("builtins.ValueError"), {"contains": ["12"]}, False),
    ("message lists every value", {**raised("builtins.ValueError"), "message": " ".join(map(str, range(200)))},
     {**raised("builtins.ValueError"), "message": "12 values; (5, 3) needs 15"}, {"contains": ["12", "15"]}, False),
    ("dtype kind on request", array([1, 2], np.int64), array([1, 2], np.int32), {"check_dtype": "kind"}, True),
    ("dtype kind differs", array([1, 2], np.float32), array([1, 2], np.int32), {"check_dtype": "kind"}, False),
    ("dtype kind: unsigned counts", array([1, 2], np.uint32), array([1, 2], np.int32), {"check_dtype": "kind"}, True),
    ("dtype kind: bfloat16 is a float", array([1.0], "bfloat16"), array([1.0], np.float32), {"check_dtype": "kind"}, True),
    ("dtype kind: bool is no integer", array([True], np.bool_), array([1], np.int32), {"check_dtype": "kind"}, False),
    ("unsupported", {"kind": "unsupported", "type": "x.Y"}, array([1], np.int32), {}, False),
    ("placement ignored by default", {**array([1], np.int32), "placement": {"devices": [1]}},
     {**array([1], np.int32), "placement": {"devices": [0]}}, {}, True),
    ("placement compared on request", {**array([1], np.int32), "placement": {"devices": [1]}},
     {**array([1], np.int32), "placement": {"devices": [0]}}, {"check_placement": True}, False),
    ("placement missing", array([1], np.int32), {**array([1], np.int32), "placement": {"devices": [0]}},
     {"check_placement": True}, False),
]


@pytest.mark.parametrize("what,actual,expected,options,matches", COMPARISONS, ids=[c[0] for c in COMPARISONS])
def test_compare(what, actual, expected, options, matches):
    reason = compare(actual, expected, options)
    assert (reason is None) == matches, reason


def test_a_student_exception_name_imports_nothing_in_the_grader():
    assert "antigravity" not in sys.modules
    assert compare(raised("antigravity.Fly"), raised("builtins.ValueError"), {}) is not None
    assert "antigravity" not in sys.modules


def test_an_exception_name_is_a_key_in_the_graders_table_and_opens_no_library(monkeypatch):
    """ctypes.cdll.<name> is an attribute lookup that dlopens <name>: a submission's name must
    never be looked up as an attribute (issue 35)."""
    import ctypes
    opened = []

    class Spy(ctypes.CDLL):
        def __init__(self, name, *args, **kwargs):
            opened.append(name)
            raise OSError(f"{name}: cannot open shared object file")

    monkeypatch.setattr(ctypes, "cdll", ctypes.LibraryLoader(Spy))
    for expected in ("builtins.OSError", "builtins.Exception"):
        assert compare(raised("ctypes.cdll.rt4nolib"), raised(expected), {}) is not None
    assert opened == []
    assert compare(raised("builtins.FileNotFoundError"), raised("builtins.OSError"), {}) is None


def test_a_mismatch_reason_reveals_no_expected_value():
    reason = compare(array([1.5], np.float32), array([123.25], np.float32), {})
    assert "123" not in reason


@pytest.mark.parametrize("payload", [
    {"dtype": "float32", "shape": [2], "data": base64.b64encode(b"\0" * 4).decode()},      # too short
    {"dtype": "object", "shape": [1], "data": ""},
    {"dtype": "V8", "shape": [1], "data": base64.b64encode(b"\0" * 8).decode()},
    {"dtype": "[('a', 'i4')]", "shape": [1], "data": ""},
    {"dtype": "__class__", "shape": [1], "data": ""},
    {"dtype": "float32", "shape": [2**40, 2**40], "data": ""},                               # memory bomb
    {"dtype": "float32", "shape": [1], "data": "not base64!"},
    {"dtype": "float32 ", "shape": [1], "data": base64.b64encode(b"\0" * 4).decode()},   # names outside the table
    {"dtype": "<f4", "shape": [1], "data": base64.b64encode(b"\0" * 4).decode()},
    {"dtype": "finfo", "shape": [1], "data": ""},
])
def test_decode_refuses_what_is_not_a_plain_array(payload):
    with pytest.raises((ValueError, TypeError)):
        decode_array(payload)


def test_decode_reads_bfloat16():
    import ml_dtypes
    a = np.array([1.5, -2.0], dtype=ml_dtypes.bfloat16)
    payload = {"dtype": "bfloat16", "shape": [2], "data": base64.b64encode(a.tobytes()).decode()}
    assert decode_array(payload).tolist() == [1.5, -2.0]


# ---------------------------------------------------------------- scoring a cell

def cell_with(*records, error=None, count=1):
    outputs = [nbformat.v4.new_output("display_data", data={CHECK_MIME: r}) for r in records]
    if error:
        outputs.append(nbformat.v4.new_output("error", ename=error[0], evalue=error[1], traceback=[]))
    return nbformat.v4.new_code_cell("", outputs=outputs, execution_count=count)


def record(name, value, **options):
    return {"name": name, "value": value, "options": options}


WANT = {"sums": {"value": array([3, 5], np.int32), "options": {}}}

SCORING = [
    ("right", cell_with(record("sums", array([3, 5], np.int32))), WANT, Status.OK),
    ("wrong", cell_with(record("sums", array([3, 6], np.int32))), WANT, Status.FAILED),
    ("not reported", cell_with(), WANT, Status.FAILED),
    ("assert", cell_with(error=("AssertionError", "no")), WANT, Status.FAILED),
    ("raised", cell_with(error=("KeyError", "x")), WANT, Status.ERROR),
    ("forged extra", cell_with(record("sums", array([3, 5], np.int32)), record("other", {"kind": "none"})),
     WANT, Status.TAMPERED),
    ("repeated", cell_with(record("sums", array([3, 5], np.int32)), record("sums", array([3, 5], np.int32))),
     WANT, Status.TAMPERED),
    # Malformed records fail their cell; they never raise out of the scorer.
    ("value not a dict", cell_with({"name": "sums", "value": "x"}), WANT, Status.TAMPERED),
    ("shape not a list", cell_with(record("sums", {**array([3, 5], np.int32), "shape": "2"})), WANT, Status.TAMPERED),
    ("negative shape", cell_with(record("sums", {**array([3, 5], np.int32), "shape": [-2]})), WANT, Status.TAMPERED),
    ("bad kind", cell_with(record("sums", {"kind": "pickle", "data": ""})), WANT, Status.TAMPERED),
    ("items not a list", cell_with(record("sums", {"kind": "seq", "items": {"a": 1}})), WANT, Status.TAMPERED),
    ("options not a dict", cell_with({"name": "sums", "value": array([3, 5], np.int32), "options": 3}),
     WANT, Status.TAMPERED),
    ("deep nesting", cell_with(record("sums", json.loads('{"kind": "seq", "items": [' * 20 + ']}' * 20))),
     WANT, Status.TAMPERED),
    # A test cell that the lesson gave no hidden checks fails closed.
    ("no expected checks", cell_with(record("sums", array([3, 5], np.int32))), {}, Status.ERROR),
]


@pytest.mark.parametrize("what,cell,expected,status", SCORING, ids=[s[0] for s in SCORING])
def test_score_cell(what, cell, expected, status):
    result = score_cell("t", 2, cell, expected)
    assert result.status == status, result
    assert result.points == (2 if status == Status.OK else 0)


def test_scoring_is_linear_in_the_records_and_capped_with_a_reason():
    """80,000 exports of one name used to cost minutes (a count per name); past the cap the cell
    is tampered, and reading stops there."""
    output = {"output_type": "display_data", "metadata": {}, "data": {CHECK_MIME: record("sums", array([3, 5], np.int32))}}
    flood = nbformat.NotebookNode(cell_type="code", metadata={}, source="", execution_count=1,
                                  outputs=[output] * 80_000)  # unvalidated: nbformat's own check is the slow part
    result = score_cell("t", 2, flood, WANT)
    assert result.status == Status.TAMPERED and "more than 1000 check exports in one cell" in result.detail
    names = [record(f"n{i}", {"kind": "none"}) for i in range(1000)]
    result = score_cell("t", 2, cell_with(*names), WANT)
    assert result.status == Status.TAMPERED and result.detail.startswith("unexpected or repeated check exports: n0, n1")


def test_score_cell_reports_a_stopped_run_for_cells_it_never_reached():
    never_ran = nbformat.v4.new_code_cell("")
    result = score_cell("t", 1, never_ran, WANT, (Status.TIMEOUT, "the run stopped"))
    assert result.status == Status.TIMEOUT and result.points == 0


def test_receipt_keeps_known_fields_of_their_own_type_only():
    cell = nbformat.v4.new_code_cell("", outputs=[nbformat.v4.new_output("display_data", data={
        "application/vnd.jaxcourse.receipt+json": {"backend": "cpu\x1b[2J", "device_count": "4", "evil": 1,
                                                   "device_kinds": ["cpu\u202e"], "process_index": 0}})])
    assert receipt_of(cell) == {"backend": "cpu[2J", "device_kinds": ["cpu"], "process_index": 0}


# ---------------------------------------------------------------- inert text

@pytest.mark.parametrize("text,safe", [
    ("=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"),
    ("+1", "'+1"), ("-1", "'-1"), ("@SUM(A1)", "'@SUM(A1)"),
    ("\x1b[31mred\x1b[0m", "[31mred[0m"),
    ("two\nlines\r\nhere", "two lines here"),
    ("bidi\u202eevil", "bidievil"),
    ("plain: text", "plain: text"),
    ("x" * 1000, "x" * 399 + "…"),
])
def test_spreadsheet_safe(text, safe):
    assert spreadsheet_safe(text) == safe


def test_csv_rows_are_inert_in_every_student_field():
    row = csv_row("ada", "tiny", CellResult("t", 0, 1, "error", inert("=cmd|' /C calc'!A0: \x07boom")), "=cpu")
    assert row["detail"].startswith("'=") and "\x07" not in row["detail"]
    assert row["platform"] == "'=cpu"


# ---------------------------------------------------------------- reading submissions

def solved_notebook() -> dict:
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# Lesson", id="title"),
        nbformat.v4.new_code_cell("x = 1", id="answer", metadata={"nbgrader": {"grade_id": "answer"}}),
    ])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return json.loads(nbformat.writes(nb))


def colab_download(nb: dict) -> dict:
    """What Colab's File → Download .ipynb writes: nbformat 4.0, ids in metadata, colab fields."""
    nb = json.loads(json.dumps(nb))
    nb["nbformat_minor"] = 0
    nb["metadata"]["colab"] = {"provenance": [], "name": "lesson.ipynb"}
    nb["metadata"]["accelerator"] = "GPU"
    for i, cell in enumerate(nb["cells"]):
        cell["metadata"]["id"] = f"colab{i}Xy"
        del cell["id"]
        if cell["cell_type"] == "code":
            cell["metadata"]["colab"] = {"base_uri": "https://localhost:8080/"}
            cell["metadata"]["outputId"] = "3a1b"
            cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": ["1\n"]}]
    return nb


def kaggle_download(nb: dict) -> dict:
    nb = json.loads(json.dumps(nb))
    nb["nbformat_minor"] = 4
    nb["metadata"]["kaggle"] = {"accelerator": "none", "isInternetEnabled": False}
    for cell in nb["cells"]:
        del cell["id"]
        cell["metadata"]["execution"] = {"iopub.execute_input": "2026-01-01T00:00:00"}
    return nb


def vscode_save(nb: dict) -> dict:
    nb = json.loads(json.dumps(nb))
    nb["nbformat_minor"] = 2
    nb["metadata"]["vscode"] = {"interpreter": {"hash": "abc"}}
    for cell in nb["cells"]:
        del cell["id"]
        if cell["cell_type"] == "markdown":
            cell["outputs"] = []  # a field markdown cells do not have
    return nb


@pytest.mark.parametrize("shape,editor", [(colab_download, "Colab"), (kaggle_download, "Kaggle"),
                                          (vscode_save, "VS Code")])
def test_notebooks_from_other_editors_are_upgraded_in_memory(tmp_path, shape, editor):
    path = tmp_path / "lesson.ipynb"
    raw = json.dumps(shape(solved_notebook())).encode()
    path.write_bytes(raw)
    nb, notes = read_submission(path)
    nbformat.validate(nb)
    assert nb.nbformat_minor == 5 and [c.cell_type for c in nb.cells] == ["markdown", "code"]
    assert nb.cells[1].metadata.nbgrader.grade_id == "answer"
    assert any(editor in note for note in notes), notes
    assert path.read_bytes() == raw  # the submitted file is never changed


def test_colab_cell_ids_are_kept(tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(colab_download(solved_notebook())))
    nb, _ = read_submission(path)
    assert [c.id for c in nb.cells] == ["colab0Xy", "colab1Xy"]


def test_a_byte_order_mark_is_removed(tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_bytes(codecs.BOM_UTF8 + json.dumps(solved_notebook()).encode())
    nb, notes = read_submission(path)
    assert "byte-order mark removed" in notes and len(nb.cells) == 2


@pytest.mark.parametrize("content,reason", [
    (b"\xff\xfe", "not UTF-8"),
    (b"{", "not valid notebook JSON"),
    (b"[" * 100000 + b"]" * 100000, "not valid notebook JSON"),
    (json.dumps({"cells": [], "nbformat": 3}).encode(), "nbformat 3"),
    (json.dumps({"nbformat": 4, "nbformat_minor": 5, "cells": [{"cell_type": "widget"}], "metadata": {}}).encode(),
     "unknown type"),
    (json.dumps([1]).encode(), "no cells"),
    # Nested within json's own limit, but deeper than the grader's copies of a notebook go.
    (json.dumps({"nbformat": 4, "cells": [], "metadata": json.loads('{"a": ' * 300 + "1" + "}" * 300)}).encode(),
     "nests deeper than 100 levels"),
])
def test_unreadable_submissions_get_a_clear_reason(tmp_path, content, reason):
    path = tmp_path / "lesson.ipynb"
    path.write_bytes(content)
    with pytest.raises(UnreadableSubmission, match=reason):
        read_submission(path)


def rich_notebook() -> dict:
    """A solved notebook with an nbgrader cell, tags and an output of each kind, in Colab's shape."""
    nb = colab_download(solved_notebook())
    nb["cells"][1]["metadata"]["tags"] = ["keep"]
    nb["cells"][1]["outputs"] += [
        {"output_type": "display_data", "data": {"text/plain": "1"}, "metadata": {"image/png": {"width": 2}}},
        {"output_type": "execute_result", "data": {"text/plain": "1"}, "metadata": {}, "execution_count": 1},
        {"output_type": "error", "ename": "E", "evalue": "v", "traceback": ["t"]}]
    return nb


def every_path(node, path=()):
    yield path
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in children:
        yield from every_path(child, (*path, key))


def replaced(data, path, value):
    data = json.loads(json.dumps(data))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    return data


ODD_VALUES = (7, -1.5, "x", None, True, [], {}, [7], {"7": 7}, "\ud800")


def test_any_value_anywhere_in_a_submission_is_read_or_refused_with_a_reason(tmp_path):
    """Every field of a notebook replaced by every kind of JSON value: the reader returns a valid
    notebook that can be written back (and rendered as feedback) or refuses with a reason; it never
    crashes, which would make that student a grader bug."""
    path = tmp_path / "lesson.ipynb"
    original = rich_notebook()
    tried = 0
    for where in list(every_path(original))[1:]:
        for value in ODD_VALUES:
            path.write_text(json.dumps(replaced(original, where, value)))
            try:
                nb, _ = read_submission(path)
            except UnreadableSubmission:
                continue
            nbformat.validate(nb)
            nbformat.writes(nb).encode("utf-8")
            feedback_notebook(nb, [])
            tried += 1
    assert tried > 400


def test_a_lone_surrogate_is_replaced_and_named(tmp_path):
    path = tmp_path / "lesson.ipynb"
    path.write_text(json.dumps(solved_notebook()).replace('"x = 1"', '"x = 1  # \\udc80"'))
    nb, notes = read_submission(path)
    assert nb.cells[1].source.startswith("x = 1  # \ufffd")
    assert any("lone surrogate" in note for note in notes), notes


# ---------------------------------------------------------------- the exporter, run in this process

@pytest.fixture(scope="module")
def prelude_run():
    """Calls the prelude's grader_check or grader_raises, with display() captured instead of sent
    to a notebook; returns the record it exported."""
    import IPython.display
    sent = []
    original = IPython.display.display
    IPython.display.display = lambda payload, raw=False: sent.append(payload[CHECK_MIME])
    try:
        namespace = {}
        exec(open(prelude.__file__).read(), namespace)
    finally:
        IPython.display.display = original

    def run(function, *args, **kwargs):
        sent.clear()
        namespace[function]("v", *args, **kwargs)
        return sent[0]
    return run


@pytest.fixture(scope="module")
def exporter(prelude_run):
    return lambda value, **options: prelude_run("grader_check", value, **options)["value"]


class FloatLike(float):
    def __eq__(self, other):
        return True


class StrLike(str):
    pass


class ArrayLike:
    def __array__(self, dtype=None, copy=None):
        return np.array([1.0])


class Matrixish(np.ndarray):
    pass


@pytest.mark.parametrize("value", [FloatLike(1.0), StrLike("a"), ArrayLike(), np.zeros(2).view(Matrixish),
                                   [1, FloatLike(2.0)], {"a": ArrayLike()}, (i for i in range(2))])
def test_the_exporter_refuses_objects_that_could_decide_their_own_answer(exporter, value):
    payload = exporter(value)
    found = [payload]
    while found:  # anywhere in the structure
        item = found.pop()
        if item["kind"] == "unsupported":
            return
        found += item.get("items", []) if isinstance(item.get("items"), list) else list(item.get("items", {}).values())
    pytest.fail(f"exported {payload}")


@pytest.mark.parametrize("value,kind", [(1, "array"), (1.5, "array"), (True, "array"), (1 + 2j, "array"),
                                        ("a", "str"), (None, "none"), ([1], "seq"), ({"a": 1}, "map"),
                                        (np.float32(2), "array"), (np.arange(3), "array")])
def test_the_exporter_exports_plain_values(exporter, value, kind):
    assert exporter(value)["kind"] == kind


def test_every_dtype_the_exporter_names_is_in_the_graders_table(exporter):
    import ml_dtypes
    for value in (np.arange(3, dtype=">i4"), np.ones(2, dtype=">f8"), np.array([1.5], dtype=ml_dtypes.bfloat16),
                  np.float16(2), np.uint8(3), np.complex64(1j), np.bool_(True)):
        assert decode_array(exporter(value)).tolist() == np.asarray(value).tolist()


def test_grader_raises_exports_the_message_only_when_asked(prelude_run):
    def refuse():
        raise ValueError("cannot arrange 12 values as (5, 3): that shape needs 15")
    plain = prelude_run("grader_raises", refuse)
    assert "message" not in plain["value"] and plain["options"] == {}
    asked = prelude_run("grader_raises", refuse, message_contains=["12", "15"])
    assert asked["value"]["message"].startswith("cannot arrange 12") and asked["options"] == {"contains": ["12", "15"]}
    assert compare(asked["value"], raised("builtins.ValueError"), asked["options"]) is None


class SilentError(ValueError):
    def __str__(self):
        raise RuntimeError("no message")


class SubclassMessageError(ValueError):
    def __str__(self):
        return StrLike("12 15")


@pytest.mark.parametrize("error", [SilentError, SubclassMessageError])
def test_a_message_that_is_not_plain_text_names_nothing(prelude_run, error):
    def refuse():
        raise error()
    asked = prelude_run("grader_raises", refuse, message_contains=["12"])
    assert asked["value"]["message"] == ""
    assert compare(asked["value"], raised("builtins.ValueError"), asked["options"]) is not None


def test_a_jax_array_exports_its_placement(exporter):
    import jax
    import jax.numpy as jnp
    placed = jax.device_put(jnp.arange(4), jax.devices()[0])
    payload = exporter(placed)
    assert payload["placement"]["devices"] == [jax.devices()[0].id]
    assert payload["placement"]["committed"] is True
    assert payload["placement"]["shards"] == [[jax.devices()[0].id, [[0, 4]]]]
    assert exporter(jnp.arange(4))["placement"]["committed"] is False


# ---------------------------------------------------------------- the sandbox command line

def values_after(cmd, flag):
    return [cmd[i + 1:i + 3] for i, part in enumerate(cmd) if part == flag]


def test_dev_and_dev_shm_are_size_capped(tmp_path):
    limits = Limits(scratch_bytes=8 * 2**20)
    cmd = bwrap_command("cpu", tmp_path, limits, {})
    assert "--dev" not in cmd  # bwrap's own /dev is an uncapped tmpfs
    tmpfs = {cmd[i + 1]: cmd[i - 1] for i, part in enumerate(cmd) if part == "--tmpfs"}
    assert tmpfs["/dev"] == str(1 << 20) and tmpfs["/dev/shm"] == str(8 * 2**20)
    assert cmd.index("--remount-ro") < cmd.index("/dev/shm", cmd.index("--remount-ro"))
    assert ["/dev/null", "/dev/null"] in values_after(cmd, "--dev-bind")


def test_the_environment_passes_by_exact_names(monkeypatch):
    for name, value in {"XLA_FLAGS": "--xla_dump_to=/x", "TPU_SECRET_TOKEN": "t", "CUDA_CACHE_PATH": "/c",
                        "XLA_PYTHON_CLIENT_MEM_FRACTION": ".5", "NVIDIA_TOKEN": "n", "AWS_SECRET": "a",
                        "LD_PRELOAD": "/evil.so"}.items():
        monkeypatch.setenv(name, value)
    env = sandbox_env("gpu", {"CUDA_VISIBLE_DEVICES": "1"})
    assert env["XLA_FLAGS"] == "--xla_dump_to=/x" and env["XLA_PYTHON_CLIENT_MEM_FRACTION"] == ".5"
    assert env["CUDA_VISIBLE_DEVICES"] == "1" and env["JAX_PLATFORMS"] == "gpu,cpu"  # callbacks need the host
    for absent in ("TPU_SECRET_TOKEN", "CUDA_CACHE_PATH", "NVIDIA_TOKEN", "AWS_SECRET", "LD_PRELOAD", "PYTHONPATH"):
        assert absent not in env


def test_a_python_found_through_pythonpath_is_found_in_every_run(monkeypatch, tmp_path):
    """A TPU VM installs JAX in a folder named by PYTHONPATH: runs get that folder, read-only, and no
    relative or missing entry."""
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), "relative/dir", str(tmp_path / "missing")]))
    assert sandbox_env("tpu")["PYTHONPATH"] == str(site)
    cmd = bwrap_command("cpu", tmp_path, Limits(), {})
    assert [str(site), str(site)] in values_after(cmd, "--ro-bind")


@pytest.fixture
def fake_dev(tmp_path):
    """A fabricated /dev: four GPUs, four TPU chips, and a VFIO host's groups."""
    dev = tmp_path / "dev"
    (dev / "vfio").mkdir(parents=True)
    names = ["nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset", "null",
             *[f"nvidia{i}" for i in range(4)], *[f"accel{i}" for i in range(4)]]
    for name in names:
        (dev / name).touch()
    vfio = tmp_path / "vfio-dev" / "vfio"
    vfio.mkdir(parents=True)
    for name in ("vfio", "11", "7", "30", "9"):
        (vfio / name).touch()
    return dev, vfio.parent


def test_each_gpu_worker_binds_only_its_own_gpu(fake_dev):
    dev, _ = fake_dev
    nodes = accelerator_nodes("gpu", worker_env("gpu", 2), dev)
    names = sorted(os.path.basename(n) for n in nodes)
    assert names == ["nvidia-modeset", "nvidia-uvm", "nvidia-uvm-tools", "nvidia2", "nvidiactl"]


def test_each_tpu_worker_binds_only_its_own_chip(fake_dev):
    dev, vfio_dev = fake_dev
    assert [os.path.basename(n) for n in accelerator_nodes("tpu", worker_env("tpu", 3), dev)] == ["accel3"]
    # Behind VFIO, chip i is the i-th IOMMU group in numeric order (7, 9, 11, 30), plus the container.
    nodes = accelerator_nodes("tpu", worker_env("tpu", 2), vfio_dev)
    assert [os.path.relpath(n, vfio_dev) for n in nodes] == ["vfio/vfio", "vfio/11"]


def test_one_worker_per_host_binds_every_device_and_cpu_binds_none(fake_dev):
    dev, _ = fake_dev
    assert len([n for n in accelerator_nodes("gpu", {}, dev) if n[-1].isdigit()]) == 4
    assert accelerator_nodes("cpu", {}, dev) == []


def test_the_watchdog_counts_threads_as_tasks():
    stop = threading.Event()
    threads = [threading.Thread(target=stop.wait) for _ in range(20)]
    for thread in threads:
        thread.start()
    try:
        _, tasks = tree_usage(os.getpid())
        assert tasks >= 21
    finally:
        stop.set()
        for thread in threads:
            thread.join()


# A child that starts a grandchild holding 128 MiB, and says when it is ready.
HOARDING_GRANDCHILD = ("import subprocess, sys\n"
                       "code = 'import sys, time\\nhoard = bytearray(128 * 2**20)\\nprint(1, flush=True)\\ntime.sleep(60)'\n"
                       "grandchild = subprocess.Popen([sys.executable, '-c', code], stdout=subprocess.PIPE)\n"
                       "grandchild.stdout.readline()\nprint('ready', flush=True)\ngrandchild.wait()\n")


@pytest.mark.parametrize("task_files", [True, False], ids=["task-children-files", "psutil"])
def test_the_watchdog_counts_every_descendant(monkeypatch, task_files):
    """Children and grandchildren count, whether the tree is read from /proc/PID/task/TID/children
    or, where the host does not fill those files, through psutil."""
    if task_files:
        assert limits.task_files_list_children()  # this machine's kernel fills them
    else:
        monkeypatch.setattr(limits, "task_files_list_children", lambda: False)
    before, _ = tree_usage(os.getpid())
    child = subprocess.Popen([sys.executable, "-c", HOARDING_GRANDCHILD], stdout=subprocess.PIPE, start_new_session=True)
    try:
        assert child.stdout.readline() == b"ready\n"
        after, tasks_after = tree_usage(os.getpid())
        assert after - before >= 128 * 2**20 and tree_usage(child.pid)[1] >= 2
        assert Watchdog(os.getpid(), Limits(memory_bytes=after - 64 * 2**20)).verdict() == "memory"
        assert Watchdog(os.getpid(), Limits(memory_bytes=after + 2**30, max_processes=tasks_after - 1)
                        ).verdict() == "processes"
        assert Watchdog(os.getpid(), Limits(memory_bytes=after + 2**30, max_processes=tasks_after + 64)).verdict() == ""
    finally:
        os.killpg(child.pid, 9)
        child.wait()


def test_the_watchdog_counts_a_process_once_where_the_children_files_list_its_threads(monkeypatch):
    """gVisor (a TPU VM's sandboxed runtime) lists a child's threads beside it in
    /proc/PID/task/TID/children: counted as processes, one JAX kernel passed 4 GiB."""
    child = subprocess.Popen([sys.executable, "-c", "import threading, time\nhoard = bytearray(64 * 2**20)\n"
                              "for _ in range(8):\n    threading.Thread(target=time.sleep, args=(60,)).start()\n"
                              "print('ready', flush=True)\ntime.sleep(60)"], stdout=subprocess.PIPE)
    try:
        assert child.stdout.readline() == b"ready\n"
        linux, tasks = tree_usage(os.getpid())
        listed = limits._children_from_task_files
        monkeypatch.setattr(limits, "_children_from_task_files", lambda pid: listed(pid) + (
            [int(tid) for tid in os.listdir(f"/proc/{child.pid}/task")] if pid == os.getpid() else []))
        assert len(limits._children_from_task_files(os.getpid())) >= 10  # the child, and its 9 threads again
        assert abs(tree_usage(os.getpid())[0] - linux) < 16 * 2**20 and tree_usage(os.getpid())[1] == tasks
    finally:
        child.kill()
        child.wait()


# /proc/PID/maps of a TPU process on a v5e host (gVisor), cut: its RSS counted the chip's mappings.
TPU_MAPS = """7eef91ee1000-7ef091ee1000 rw-s 00000000 00:01 1                          anon_inode:[vfio-device]
7ef108000000-7ef208000000 rw-s 00000000 00:01 1                          anon_inode:[vfio-device]
7ef217e00000-7ef317e00000 rw-p 00000000 00:00 0
7ef419600000-7ef436947000 r-xp 00000000 00:11 7423                       /opt/device-scrub/libtpu/libtpu.so
7f0000000000-7f0000100000 rw-s 00000000 00:05 9                          /dev/zero (deleted)
7f0000100000-7f0000200000 rw-s 00000000 00:05 9                          /dev/accel0
"""


def test_the_watchdog_leaves_out_device_memory_and_allows_for_the_tpu_runtime():
    """Without cgroups (a TPU VM's runtime), RSS counts the chip's mappings (13.6 GiB RSS, 5.7 GiB of
    host memory after JAX started the TPU): only host memory counts, over the TPU runtime's allowance."""
    assert device_mapped_bytes(TPU_MAPS) == 2 * 2**32 + 2**20  # a shared /dev/zero mapping is host memory
    assert RunSettings("tpu").spec(0).limits.memory_bytes == Limits().memory_bytes + 8 * 2**30
    assert RunSettings("cpu").spec(0).limits.memory_bytes == Limits().memory_bytes


def test_the_watchdog_counts_memfd_memory_that_no_rss_shows():
    """Without cgroups, memory written into a memfd and never mapped must still count (once,
    however many descriptors share it)."""
    before, _ = tree_usage(os.getpid())
    fd = os.memfd_create("hoard")
    second = os.dup(fd)
    try:
        os.write(fd, b"x" * (64 * 2**20))
        after, _ = tree_usage(os.getpid())
        assert 64 * 2**20 <= after - before < 96 * 2**20
    finally:
        os.close(fd)
        os.close(second)


@pytest.mark.parametrize("others", [0, 9])
def test_the_watchdogs_of_all_sandboxes_share_a_twentieth_of_a_core(monkeypatch, tmp_path, others):
    """A check that costs 10 ms runs every 0.2 s for one sandbox; with ten watched at once, each
    is checked only every 2 s, which MAX_CHECK_SECONDS brings back to 0.5 s. (On a clock of the
    test's own: the schedule is what is tested, not this machine's speed.)"""
    clock, checks = types.SimpleNamespace(now=0.0), []

    def sleep(seconds):
        clock.now += seconds

    def costly_check(self):
        checks.append(clock.now)
        sleep(0.01)
        return ""

    monkeypatch.setattr(supervise, "time", types.SimpleNamespace(monotonic=lambda: clock.now, sleep=sleep))
    monkeypatch.setattr(supervise.Watchdog, "__init__", lambda self, root, limits: None)
    monkeypatch.setattr(supervise.Watchdog, "verdict", costly_check)
    monkeypatch.setattr(supervise, "_output_over", lambda out, limits: "")
    monkeypatch.setattr(supervise.WATCHING, "count", others)
    running_for_ten_seconds = types.SimpleNamespace(pid=1, poll=lambda: None if clock.now < 10 else 0)
    no_cgroup = types.SimpleNamespace(active=False)
    assert supervise._watch(running_for_ten_seconds, Limits(), no_cgroup, tmp_path) == (False, "")
    spacing = (checks[-1] - checks[0]) / (len(checks) - 1)
    assert (0.5 if others else 0.2) <= spacing < (0.56 if others else 0.26), checks


# ---------------------------------------------------------------- what a sandbox leaves behind

def test_read_regular_refuses_links_fifos_and_large_files(tmp_path):
    (tmp_path / "ok").write_bytes(b"x" * 10)
    assert safefs.read_regular(tmp_path / "ok", 10) == b"x" * 10
    with pytest.raises(safefs.NotRegular):
        safefs.read_regular(tmp_path / "ok", 9)
    (tmp_path / "link").symlink_to("/etc/passwd")
    with pytest.raises(OSError):
        safefs.read_regular(tmp_path / "link", 10**6)
    os.mkfifo(tmp_path / "fifo")
    start = time.monotonic()
    with pytest.raises(safefs.NotRegular):
        safefs.read_regular(tmp_path / "fifo", 10**6)
    assert time.monotonic() - start < 5  # never blocks on a pipe


def test_a_tree_deeper_than_the_stack_is_measured_and_removed(tmp_path):
    root = tmp_path / "out"
    root.mkdir()
    nested_folders(root, 5000, link_to="/etc")
    (root / "link").symlink_to(tmp_path.parent)
    size, entries = safefs.tree_usage(root, max_entries=1000)
    assert entries > 1000  # past the depth cap: counts as over the limit
    safefs.remove_tree(root)
    assert not root.exists() and tmp_path.exists() and os.path.exists("/etc/passwd")


@pytest.fixture
def temporary_folder(tmp_path, monkeypatch):
    """`tmp_path` as the grader's temporary folder, for runs_folder() in this test only."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    runs_folder.cache_clear()
    yield tmp_path
    runs_folder.cache_clear()


def test_the_runs_folder_is_never_one_another_account_made_or_can_replace(temporary_folder):
    """Another account may create anything under the runs folder's names in a shared /tmp first: a
    folder open to all, a link to a folder of the grader's, one of its own. None of it is used."""
    uid, tmp = os.geteuid(), temporary_folder
    elsewhere = tmp / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    (tmp / f"{RUNS_PREFIX}{uid}-0-link").symlink_to(elsewhere)
    (tmp / f"{RUNS_PREFIX}{uid}-1-open").mkdir()
    os.chmod(tmp / f"{RUNS_PREFIX}{uid}-1-open", 0o777)
    (tmp / f"{RUNS_PREFIX}{uid}").mkdir(mode=0o700)  # the fixed name graders used before
    if uid == 0:  # only root can make a folder another account owns
        (tmp / f"{RUNS_PREFIX}{uid}-2-theirs").mkdir(mode=0o700)
        os.chown(tmp / f"{RUNS_PREFIX}{uid}-2-theirs", 65534, 65534)
    planted = set(tmp.iterdir())
    runs = runs_folder()
    assert runs not in planted and runs.parent == tmp and runs.name.startswith(f"{RUNS_PREFIX}{uid}-")
    info = runs.lstat()
    assert info.st_uid == uid and oct(info.st_mode & 0o7777) == "0o700"
    assert runs_folder.__wrapped__() == runs  # the next grader takes it, and so finds a killed one's runs
    for mode in (0o777, 0o1777):  # a temporary folder others may write in must be sticky
        os.chmod(tmp, mode)
        if mode & 0o1000:
            assert runs_folder.__wrapped__() == runs
        else:
            with pytest.raises(SandboxUnavailable, match="writable by other accounts and not sticky"):
                runs_folder.__wrapped__()
    os.chmod(tmp, 0o700)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can put another account's folder in the runs folder")
def test_abandoned_runs_are_removed_and_nothing_else_is_followed_or_removed(temporary_folder):
    runs = runs_folder()
    abandoned, theirs, target = runs / "run-abandoned", runs / "run-theirs", temporary_folder / "target"
    for folder in (abandoned, theirs, target):
        folder.mkdir()
        (folder / "file").write_text("x")
    os.chown(theirs, 65534, 65534)
    (runs / "run-link").symlink_to(target)
    for path in (abandoned, theirs):
        os.utime(path, (0, 0), follow_symlinks=False)  # past the grace period
    assert remove_abandoned_runs.__wrapped__() == 1
    assert not abandoned.exists() and (theirs / "file").exists() and (target / "file").exists()
    assert (runs / "run-link").is_symlink()


def test_a_run_folder_is_never_removed_while_it_is_being_made(temporary_folder):
    """A grader that removes abandoned folders (each grader does, at its first sandbox) runs beside
    graders making theirs. Before, it could take a new folder's lock before its maker did, find it
    free and remove the folder: the sandbox built in it then failed (bwrap's status 1)."""
    removed, stop = 0, threading.Event()

    def remove_abandoned():
        while not stop.is_set():
            remove_abandoned_runs.__wrapped__()

    remover = threading.Thread(target=remove_abandoned)
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible, as a loaded machine does
    try:
        remover.start()
        for _ in range(1000):
            workdir, lock = locked_run_folder()
            time.sleep(0.0005)  # the remover's turn
            removed += not (workdir / ".lock").exists()
            safefs.remove_tree(workdir)
            os.close(lock)
    finally:
        stop.set()
        remover.join()
        sys.setswitchinterval(interval)
    assert removed == 0, f"{removed} of 1000 folders removed while being made"


def test_tree_usage_counts_folders_and_files(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "f").write_bytes(b"x" * 100)
    assert safefs.tree_usage(tmp_path, 100) == (100, 3)


@pytest.mark.parametrize("platform,slot,env", [
    ("cpu", 3, {}),
    ("gpu", 1, {"CUDA_VISIBLE_DEVICES": "1", "CUDA_DEVICE_ORDER": "PCI_BUS_ID", "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}),
    ("tpu", 2, {"TPU_VISIBLE_CHIPS": "2", "ALLOW_MULTIPLE_LIBTPU_LOAD": "true", "TPU_CHIPS_PER_PROCESS_BOUNDS": "1,1,1",
                "TPU_PROCESS_BOUNDS": "1,1,1", "TPU_PROCESS_PORT": "8478"}),
])
def test_each_worker_is_confined_to_its_own_device(platform, slot, env):
    assert worker_env(platform, slot) == env
    assert sandbox_env(platform, worker_env(platform, slot))["JAX_PLATFORMS"] == (
        "cpu" if platform == "cpu" else f"{platform},cpu")
