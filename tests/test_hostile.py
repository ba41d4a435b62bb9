"""Red team: hostile and broken submissions against the real sandboxed grader.

Each submission attacks one defence and asserts its exact status and points.
"""
import hashlib
import re
import socket
import threading

import nbformat
import pytest

from conftest import fresh_tiny, grade, nested_folders, release_nb, submit_solution
from jaxcourse.authoring import fabricate
from jaxcourse.grading.record import executed_path
from jaxcourse.run import execute, safefs
from jaxcourse.run.limits import Cgroup, Limits

WRONG_SUMS = "def column_sums(table):\n    return table.sum(axis=0) + 1\n"


def code(source):
    return nbformat.v4.new_code_cell(source)


def answer(sums=None, checkpoint=None):
    """Edit a solved notebook: replace the answers of the two solution cells."""
    def edit(nb):
        for cell in nb.cells:
            grade_id = cell.metadata.get("nbgrader", {}).get("grade_id")
            if grade_id == "sums-solution" and sums is not None:
                cell.source = sums
            if grade_id == "checkpoint-solution" and checkpoint is not None:
                cell.source = checkpoint
    return edit


def prepend(source, then=None):
    """Put an attack cell right after the setup cell, then apply `then`."""
    def edit(nb):
        nb.cells.insert(2, code(source))
        if then:
            then(nb)
    return edit


def both(first, second):
    def edit(nb):
        first(nb)
        second(nb)
    return edit


def blank(course):
    return release_nb(course, "tiny")


ATTACKS = {
    # A wrong answer with the comparison helpers and assert patched to always agree.
    "patch-asserts": prepend(
        "import builtins, numpy, numpy.testing, jax.numpy as jnp\n"
        "jnp.allclose = lambda *a, **k: True\nnumpy.allclose = lambda *a, **k: True\n"
        "numpy.testing.assert_allclose = lambda *a, **k: None\nnumpy.array_equal = lambda *a, **k: True\n"
        "builtins.AssertionError = type('Quiet', (Exception,), {})",
        answer(WRONG_SUMS, "checkpoint_answer = 1")),
    # Results whose __eq__ is always True and which fake the right shape, past a patched allclose.
    "always-equal": prepend("import jax.numpy as jnp\njnp.allclose = lambda *a, **k: True", answer(
        "class Anything:\n    shape = (3,)\n    def __eq__(self, other):\n        return True\n"
        "    def __array__(self, *a, **k):\n        raise TypeError('no')\n"
        "def column_sums(table):\n    return Anything()\n",
        "class Yes:\n    def __eq__(self, other):\n        return True\ncheckpoint_answer = Yes()\n")),
    # Catch the grading signal and act differently: silence the exporters, print success.
    "grading-signal": prepend(
        "import os\nGRADING = bool(os.environ.get('NBGRADER_EXECUTION')) or 'grader_check' in globals() "
        "or os.path.exists('/grader')\nif GRADING:\n    grader_check = grader_raises = lambda *a, **k: print('all tests passed')",
        answer(WRONG_SUMS, "checkpoint_answer = 3")),
    # Export a record under the hidden check's name before the hidden test does.
    "forge-record": answer(
        "from IPython.display import display\n"
        "def column_sums(table):\n"
        "    display({'application/vnd.jaxcourse.check+json': {'name': 'sums of a 4x5 table', 'value': "
        "{'kind': 'array', 'dtype': 'float32', 'shape': [5], 'data': 'AADwQQAACEIAABhCAAAoQgAAOEI='}, "
        "'options': {}}}, raw=True)\n"
        "    return table.sum(axis=0) + 1\n",
        "checkpoint_answer = 1\n"),
    # Kill the kernel as soon as a hidden test calls the code.
    "kill-kernel": answer(
        "import os, signal\ndef column_sums(table):\n    if table.shape != (2, 3):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n    return table.sum(axis=0)\n"),
}


def blank_attacks(course):
    """Attacks on an untouched release: none of them may earn a point."""
    release = blank(course)

    def transformer(nb):
        nb.cells.insert(2, code(
            "def _rewrite(lines):\n    return ['pass\\n']\nget_ipython().input_transformers_post.append(_rewrite)"))

    def ast_transformer(nb):
        nb.cells.insert(2, code(
            "import ast\nclass _NoRaise(ast.NodeTransformer):\n    def visit_Raise(self, node):\n        return ast.Pass()\n"
            "    def visit_Assert(self, node):\n        return ast.Pass()\nget_ipython().ast_transformers.append(_NoRaise())"))

    def skip_tags(nb):
        for cell in nb.cells:
            if cell.cell_type == "code":
                cell.metadata["tags"] = ["skip-execution", "raises-exception", "parameters"]

    def hide_tracebacks(nb):
        nb.cells.insert(2, code(
            "import sys\nip = get_ipython()\nip.showtraceback = lambda *a, **k: None\n"
            "ip._showtraceback = lambda *a, **k: None\nsys.excepthook = lambda *a: None"))

    def delete_tests(nb):
        nb.cells = [c for c in nb.cells if not c.metadata.get("nbgrader", {}).get("grade")]

    for name, edit in {"input-transformer": transformer, "ast-transformer": ast_transformer,
                       "skip-execution": skip_tags, "hide-tracebacks": hide_tracebacks,
                       "delete-tests": delete_tests}.items():
        nb = nbformat.from_dict(nbformat.from_dict(release))
        edit(nb)
        fabricate.submit(course, name, "tiny", nb)


@pytest.fixture(scope="module")
def attacked(tmp_path_factory):
    course = fresh_tiny(tmp_path_factory.mktemp("attacks"))
    for name, edit in ATTACKS.items():
        submit_solution(course, name, edit=edit)
    blank_attacks(course)
    submit_solution(course, "honest")
    return grade(course, "tiny", limits=Limits(cell_timeout=30, notebook_timeout=120))


def by_id(rows):
    return {row["grade_id"]: row for row in rows}


@pytest.mark.parametrize("student", sorted(ATTACKS) + ["input-transformer", "ast-transformer", "skip-execution",
                                                         "hide-tracebacks", "delete-tests"])
def test_attack_earns_nothing(attacked, student):
    rows = attacked[student]
    assert [float(r["points"]) for r in rows] == [0.0, 0.0], rows
    assert all(r["status"] in ("failed", "error", "tampered") for r in rows), rows


def test_attack_statuses_are_the_expected_ones(attacked):
    assert by_id(attacked["forge-record"])["sums-test"]["status"] == "tampered"
    assert by_id(attacked["always-equal"])["sums-test"]["detail"].startswith("sums of a 4x5 table: a __main__.Anything")
    kill = by_id(attacked["kill-kernel"])
    assert kill["sums-test"]["status"] == "error" and "the kernel died" in kill["sums-test"]["detail"]
    assert by_id(attacked["input-transformer"])["sums-test"]["detail"].startswith("check 'sums of a 4x5 table' was not reported")
    assert by_id(attacked["skip-execution"])["sums-test"]["detail"].startswith("NotImplementedError")
    assert by_id(attacked["delete-tests"])["sums-test"]["status"] == "error"


def test_honest_neighbour_is_unaffected(attacked):
    assert [r["status"] for r in attacked["honest"]] == ["ok", "ok"]


# ---------------------------------------------------------------- the sandbox, seen from inside

def test_sandbox_hides_the_course_and_the_network(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "victim")
    grade(course, "tiny")  # gives the course a gradebook, expected values and another student's files
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(0.5)
    port = listener.getsockname()[1]
    accepted = []

    def accept():
        try:
            accepted.append(listener.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    secrets = [course.gradebook, course.lesson_notebook("tiny"), course.state, course.submitted / "victim",
               course.root, "/etc/shadow", "/var", "/opt"]
    probe = (
        "import os, socket\nfor path in %r:\n"
        "    try:\n        data = os.listdir(path) if os.path.isdir(path) else open(path, 'rb').read(64)\n"
        "        print('LEAK', path, bool(data))\n    except OSError as exc:\n        print('BLOCKED', path, type(exc).__name__)\n"
        "try:\n    socket.create_connection(('127.0.0.1', %d), timeout=2)\n    print('LEAK network')\n"
        "except OSError as exc:\n    print('BLOCKED network', type(exc).__name__)\n"
        "import sys\nfor target in [sys.prefix + '/pwned', %r]:\n"
        "    try:\n        open(target, 'w').write('x')\n        print('LEAK write', target)\n"
        "    except OSError as exc:\n        print('BLOCKED write', target, type(exc).__name__)\n"
    ) % ([str(s) for s in secrets], port, str(course.root / "pwned"))
    submit_solution(course, "snoop", edit=prepend(probe))
    rows = grade(course, "tiny")
    thread.join()
    listener.close()
    assert [r["status"] for r in rows["snoop"]] == ["ok", "ok"], "a snooping submission is still graded normally"
    autograded = nbformat.read(executed_path(course, "tiny", "snoop", "tiny"), as_version=4)
    printed = "".join(o.get("text", "") for c in autograded.cells if c.cell_type == "code" for o in c.outputs)
    assert "LEAK" not in printed, printed
    assert printed.count("BLOCKED") == len(secrets) + 3, printed
    assert not accepted and not (course.root / "pwned").exists()


def test_the_sandbox_sees_no_grader_variable_and_no_host_command_line(tmp_path, monkeypatch):
    """bwrap's own init is pid 1 inside: its environment and command line are the student's to read."""
    monkeypatch.setenv("GRADER_TOKEN", "s3cret-token")
    course = fresh_tiny(tmp_path)
    probe = ("import os\nseen = b''\nfor pid in os.listdir('/proc'):\n    if pid.isdigit():\n"
             "        for name in ('environ', 'cmdline'):\n            try:\n"
             "                seen += open(f'/proc/{pid}/{name}', 'rb').read()\n            except OSError:\n"
             "                pass\nprint('TOKEN' if b's3cret' in seen else 'NO-TOKEN', "
             "'HOST-PATH' if b'jaxcourse-runs' in seen else 'NO-HOST-PATH')\n"
             "try:\n    open('/filler', 'wb').write(b'x')\n    print('ROOT-WRITABLE')\n"
             "except OSError as exc:\n    print('ROOT', exc.strerror)\n")
    submit_solution(course, "snoop", edit=prepend(probe))
    rows = grade(course, "tiny")
    assert [r["status"] for r in rows["snoop"]] == ["ok", "ok"]
    autograded = nbformat.read(executed_path(course, "tiny", "snoop", "tiny"), as_version=4)
    printed = "".join(o.get("text", "") for c in autograded.cells if c.cell_type == "code" for o in c.outputs)
    assert "NO-TOKEN NO-HOST-PATH" in printed and "ROOT Read-only file system" in printed, printed


def rewrite_and_kill_the_runner(outputs):
    """Write an executed notebook with the sent cells and these outputs, then kill the runner
    before its own final save."""
    return prepend(
        "import json, os\nsent = json.load(open('/grader/in/submission.ipynb'))\n"
        f"for cell in sent['cells']:\n    if cell['cell_type'] == 'code':\n        cell['outputs'] = {outputs!r}\n"
        "open('/grader/out/executed.ipynb', 'w').write(json.dumps(sent))\nos.kill(os.getppid(), 9)\n")


def raw_submission(course, student, change):
    """A solved notebook's JSON, changed by `change(data)` and written as the student's file."""
    import json
    data = json.loads(nbformat.writes(fabricate.solved(course, "tiny", blank(course))))
    text = change(data) or json.dumps(data)
    folder = course.submitted / student / "tiny"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tiny.ipynb").write_text(text)


def test_malformed_notebooks_fail_only_their_student_and_the_class_report_still_runs(tmp_path):
    from jaxcourse.grading.analytics import write_report
    course = fresh_tiny(tmp_path)
    raw_submission(course, "metadata-number", lambda d: d.update(metadata=5))
    raw_submission(course, "output-number", lambda d: [c.update(outputs=[5]) for c in d["cells"]
                                                       if c["cell_type"] == "code"] and None)
    raw_submission(course, "nbgrader-number", lambda d: [c["metadata"].update(nbgrader=7) for c in d["cells"]
                                                         if "nbgrader" in c["metadata"]] and None)
    raw_submission(course, "lone-surrogate",
                   lambda d: __import__("json").dumps(d).replace("column_sums", "column_sums\\udc80", 1))
    submit_solution(course, "rewritten-outputs", edit=rewrite_and_kill_the_runner([5]))
    submit_solution(course, "rewritten-stream",
                    edit=rewrite_and_kill_the_runner([{"output_type": "stream", "name": "stdout", "text": 5}]))
    submit_solution(course, "honest")
    rows = {student: by_id(r) for student, r in grade(course, "tiny").items()}
    for student in ("metadata-number", "output-number", "honest"):
        assert [r["status"] for r in rows[student].values()] == ["ok", "ok"], (student, rows[student])
    # nbgrader's metadata of every cell wrecked: graded as if the cells had been deleted, never a grader bug
    assert {r["status"] for r in rows["nbgrader-number"].values()} <= {"ok", "error", "failed"}, rows
    assert "lone surrogate" in rows["lone-surrogate"]["sums-test"]["detail"]
    assert rows["lone-surrogate"]["checkpoint-test"]["status"] == "ok"
    for student in ("rewritten-outputs", "rewritten-stream"):
        assert {(r["status"], r["points"]) for r in rows[student].values()} <= {("tampered", "0"), ("error", "0")}
    assert rows["rewritten-stream"]["sums-test"]["detail"].startswith("the executed notebook came back altered")
    page, text = write_report(course, "tiny")
    assert page.is_file() and "7 students" in text, text


def test_output_metadata_cannot_write_markup_into_feedback_or_the_autograded_copy(tmp_path):
    from jaxcourse.grading.report import write_lesson_feedback
    course = fresh_tiny(tmp_path)
    attack = "1 onerror=alert(document.domain)"
    pixel = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")

    def image_with_a_hostile_width(nb):
        cell = next(c for c in nb.cells if c.cell_type == "code")
        cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": pixel},
                                               metadata={"image/png": {"width": attack, "height": 3}})]
        nb.cells.insert(2, code("from IPython.display import Image, display\nimport base64\n"
                                f"display(Image(base64.b64decode({pixel!r}), width={attack!r}))"))
    submit_solution(course, "xss", edit=image_with_a_hostile_width)
    rows = grade(course, "tiny")
    assert [r["status"] for r in rows["xss"]] == ["ok", "ok"]
    written, _ = write_lesson_feedback(course, "tiny")
    page = next(p for p in written if "xss" in str(p)).read_text()
    images = re.findall(r"<img[^>]*>", page)
    assert images and not any("onerror" in tag for tag in images) and 'height="3"' in "".join(images)
    autograded = nbformat.read(course.autograded / "xss" / "tiny" / "tiny.ipynb", as_version=4)
    kept = [o.get("metadata") for c in autograded.cells if c.cell_type == "code" for o in c.outputs
            if "image/png" in o.get("data", {})]
    assert kept and all("onerror" not in str(meta) for meta in kept), kept


def test_a_killed_grader_leaves_no_run_folder_behind(tmp_path):
    import os
    import subprocess
    import sys
    from jaxcourse.run.workdirs import remove_abandoned_runs, runs_folder
    before = set(runs_folder().glob("run-*"))
    grader = subprocess.Popen([sys.executable, "-c", "import os, time\nfrom jaxcourse.run.execute import Sandbox\n"
                               "box = Sandbox()\nprint(box.workdir, flush=True)\ntime.sleep(600)\n"],
                              stdout=subprocess.PIPE, text=True)
    workdir = grader.stdout.readline().strip()
    remove_abandoned_runs.__wrapped__()  # (other tests' killed graders may have left folders it removes)
    assert os.path.isdir(workdir), "a live grader's folder was removed"
    grader.kill()
    grader.wait()
    assert os.path.isdir(workdir)
    remove_abandoned_runs.__wrapped__()
    assert not os.path.exists(workdir)
    assert before <= set(runs_folder().glob("run-*")) | {p for p in before if not p.exists()}


def test_a_notebook_padded_with_markdown_cells_grades_normally(tmp_path):
    """Only code cells go to the sandbox: 10^5 markdown cells must not cost the runner per cell
    (before, this notebook ran into the 900 s wall clock)."""
    course = fresh_tiny(tmp_path)

    def pad(nb):
        # from_dict: new_markdown_cell validates each cell, 20 s for these
        nb.cells[2:2] = [nbformat.from_dict({"cell_type": "markdown", "id": f"pad-{i}", "metadata": {}, "source": f"note {i}"})
                         for i in range(100_000)]
    submit_solution(course, "padded", edit=pad)
    rows = grade(course, "tiny", limits=Limits(notebook_timeout=120))
    assert [r["status"] for r in rows["padded"]] == ["ok", "ok"], rows["padded"]
    autograded = nbformat.read(course.autograded / "padded" / "tiny" / "tiny.ipynb", as_version=4)
    assert len(autograded.cells) > 100_000  # the autograded copy is still the whole notebook


# ---------------------------------------------------------------- limits

def slow_cells(nb):
    """Twelve cells of 2 s each: every cell is within its limit, the notebook is not."""
    for _ in range(12):
        nb.cells.insert(2, code("import time\ntime.sleep(2)"))


# Every limit but the sandbox's own holds without it too (`--unsafe-no-sandbox`, where bwrap cannot start).
LIMIT_MODES = {"params": [True, False], "ids": ["sandboxed", "unsandboxed"]}
# ...and where no cgroup can be made either (an ordinary account on a TPU VM): the watchdog's turn.
CAP_MODES = {"params": [(True, True), (False, True), (False, False)],
             "ids": ["sandboxed", "unsandboxed", "unsandboxed-no-cgroup"]}


class NoCgroup(Cgroup):
    """What Cgroup becomes on a host that refuses to make one."""

    def __init__(self, limits):
        self.dirs, self.oom_files, self.pids_events = [], [], []


def grade_capped(course, request, **options):
    """Grade in `request.param`'s mode: (sandboxed, cgroups allowed)."""
    sandbox, cgroups = request.param
    with pytest.MonkeyPatch.context() as patch:
        if not cgroups:
            patch.setattr(execute, "Cgroup", NoCgroup)
        return grade(course, "tiny", sandbox=sandbox, **options)


@pytest.fixture(scope="module", **CAP_MODES)
def limited(request, tmp_path_factory):
    course = fresh_tiny(tmp_path_factory.mktemp("limits"))
    spin = "def column_sums(table):\n    while True:\n        pass\n"
    stubborn = ("import signal, time\ndef column_sums(table):\n    signal.signal(signal.SIGINT, signal.SIG_IGN)\n"
                "    time.sleep(10**6)\n")
    forks = ("import subprocess\nstarted = []\nfor _ in range(600):\n    try:\n"
             "        started.append(subprocess.Popen(['sleep', '30']))\n    except OSError:\n        break\n"
             "print('STARTED', len(started))\n")
    flood = "import sys\nfor _ in range(400):\n    sys.stdout.write('x' * 100_000 + '\\n')\n"
    submit_solution(course, "spin", edit=answer(spin))
    submit_solution(course, "stubborn", edit=answer(stubborn))
    submit_solution(course, "forks", edit=prepend(forks))
    submit_solution(course, "flood", edit=prepend(flood))
    limits = Limits(cell_timeout=8, notebook_timeout=300, memory_bytes=1536 * 2**20, max_processes=64,
                    output_bytes=2 * 2**20)
    return course, grade_capped(course, request, limits=limits)


@pytest.fixture(scope="module", **CAP_MODES)
def hogged(request, tmp_path_factory):
    """A 3 GiB allocation under a 1.5 GiB cap, alone, with a cell timeout it never needs: on a
    loaded machine the cap must still be what stops it."""
    course = fresh_tiny(tmp_path_factory.mktemp("hog"))
    hog = ("import numpy as np\ndef column_sums(table):\n    hog = np.ones((2**30 // 8) * 3)\n"
           "    return table.sum(axis=0)\n")
    submit_solution(course, "hog", edit=answer(hog))
    return grade_capped(course, request, limits=Limits(cell_timeout=120, memory_bytes=1536 * 2**20))["hog"]


@pytest.fixture(scope="module", **LIMIT_MODES)
def slow(request, tmp_path_factory):
    course = fresh_tiny(tmp_path_factory.mktemp("slow"))
    submit_solution(course, "slow", edit=slow_cells)
    return grade(course, "tiny", limits=Limits(cell_timeout=10, notebook_timeout=16), sandbox=request.param)


def test_cell_timeout_fails_one_cell_and_the_rest_carry_on(limited):
    rows = by_id(limited[1]["spin"])
    assert rows["sums-test"]["status"] == "timeout" and rows["sums-test"]["points"] == "0"
    assert "longer than 8s" in rows["sums-test"]["detail"]
    assert rows["checkpoint-test"]["status"] == "ok"


def test_a_kernel_that_ignores_interrupts_times_out(limited):
    rows = by_id(limited[1]["stubborn"])
    assert [rows["sums-test"]["status"], rows["checkpoint-test"]["status"]] == ["timeout", "timeout"]
    assert rows["checkpoint-test"]["points"] == "0"


def test_notebook_wall_clock_limit(slow):
    rows = by_id(slow["slow"])
    assert [rows["sums-test"]["status"], rows["checkpoint-test"]["status"]] == ["timeout", "timeout"]
    assert "notebook ran longer than 16s" in rows["checkpoint-test"]["detail"]


def test_memory_cap(hogged):
    rows = by_id(hogged)
    assert rows["sums-test"]["status"] == "error" and rows["sums-test"]["points"] == "0"
    assert "memory limit of 1536 MiB" in rows["sums-test"]["detail"]


def test_process_cap(limited):
    course, results = limited
    rows = by_id(results["forks"])
    autograded = nbformat.read(executed_path(course, "tiny", "forks", "tiny"), as_version=4)
    printed = "".join(o.get("text", "") for c in autograded.cells if c.cell_type == "code" for o in c.outputs)
    if "STARTED" in printed:  # the cap refused further forks inside the sandbox
        assert int(printed.split("STARTED")[1].split()[0]) < 64
    # Either the kernel lived on, or the run was ended at the cap (threads count too) and says so.
    statuses = [rows["sums-test"]["status"], rows["checkpoint-test"]["status"]]
    assert statuses == ["ok", "ok"] or all("process limit of 64 exceeded" in r["detail"] for r in rows.values()), rows


def test_output_cap(limited):
    course, results = limited
    assert [r["status"] for r in results["flood"]] == ["ok", "ok"]
    path = executed_path(course, "tiny", "flood", "tiny")
    assert path.stat().st_size < 4 * 2**20
    assert "output truncated by the grader" in path.read_text()


# ---------------------------------------------------------------- bad input

def test_bad_input_becomes_rows_with_reasons_and_loses_nothing(tmp_path):
    course = fresh_tiny(tmp_path)
    release = blank(course)
    solved = fabricate.solved(course, "tiny", release)

    def put(student, name, data):
        folder = course.submitted / student / "tiny"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(data)

    good = nbformat.writes(solved).encode()
    put("invalid-json", "tiny.ipynb", good[: len(good) // 2])
    put("nbformat-3", "tiny.ipynb", b'{"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": []}')
    put("binary", "tiny.ipynb", bytes(range(256)) * 64)
    put("latin-1", "tiny.ipynb", nbformat.writes(solved).replace("column", "colümn").encode("latin-1"))
    put("huge", "tiny.ipynb", b'{"cells": [], "pad": "' + b"x" * (100 * 2**20) + b'"}')
    put("renamed", "tiny (1).ipynb", good)
    put("extra", "tiny.ipynb", good)
    put("extra", "scratch.ipynb", good)
    (course.submitted / "empty" / "tiny").mkdir(parents=True)
    no_kernel = nbformat.from_dict(solved)
    no_kernel.metadata.pop("kernelspec")
    put("no-kernelspec", "tiny.ipynb", nbformat.writes(no_kernel).encode())
    foreign = nbformat.from_dict(solved)
    foreign.metadata.kernelspec = {"name": "ir", "display_name": "R", "language": "R"}
    put("foreign-kernel", "tiny.ipynb", nbformat.writes(foreign).encode())
    put("duplicate-ids", "tiny.ipynb", _raw_with_duplicate_ids(solved))
    before = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in course.submitted.rglob("*") if p.is_file()}

    rows = {student: by_id(r) for student, r in grade(course, "tiny").items()}

    after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in course.submitted.rglob("*") if p.is_file()}
    assert before == after, "submitted files must never change"
    expect = {
        "invalid-json": ("error", "not valid notebook JSON"),
        "nbformat-3": ("error", "nbformat 3 notebooks are not supported"),
        "binary": ("error", "not UTF-8 text"),
        "latin-1": ("error", "not UTF-8 text"),
        "huge": ("error", "over the 20 MiB limit"),
        "empty": ("missing", "tiny.ipynb was not submitted"),
    }
    for student, (status, detail) in expect.items():
        for row in rows[student].values():
            assert row["status"] == status and detail in row["detail"] and row["points"] == "0", (student, row)
    for student, note in {"extra": "ignored extra notebooks: 'scratch.ipynb'",
                          "renamed": "graded 'tiny (1).ipynb' as tiny.ipynb: the only notebook that could be it",
                          "no-kernelspec": "missing kernelspec restored",
                          "foreign-kernel": "kernel 'ir' replaced",
                          "duplicate-ids": "repeated cell id(s) replaced"}.items():
        assert [r["status"] for r in rows[student].values()] == ["ok", "ok"], (student, rows[student])
        assert note in rows[student]["sums-test"]["detail"], (student, rows[student])


def _raw_with_duplicate_ids(nb):
    """nbformat refuses to write duplicate ids, as some editors do; write the JSON by hand."""
    import json
    data = json.loads(nbformat.writes(nb))
    data["cells"][1]["id"] = data["cells"][0]["id"]
    return json.dumps(data).encode()


# ---------------------------------------------------------------- round 4: the grader's own process

RAISES_CHECK = 'grader_raises("indexing past the answer", lambda: [0][checkpoint_answer])\n'


def forged_raise(type_name):
    """Rebind grader_raises so the hidden test exports an exception of this class name."""
    return prepend(
        "from IPython.display import display\n"
        "def grader_raises(name, fn, *args, **kwargs):\n"
        f"    display({{'application/vnd.jaxcourse.check+json': {{'name': name, 'value': "
        f"{{'kind': 'raised', 'type': {type_name!r}}}, 'options': {{}}}}}}, raw=True)\n")


def deep_output(depth):
    """Write the executed notebook with an output nested `depth` levels, then kill the runner."""
    return prepend(
        "import json, os\nsent = json.load(open('/grader/in/submission.ipynb'))\n"
        f"deep = 1\nfor _ in range({depth}):\n    deep = [deep]\n"
        "for cell in sent['cells']:\n    if cell['cell_type'] == 'code':\n"
        "        cell['outputs'] = [{'output_type': 'display_data', 'metadata': {}, 'data': {'application/json': {'a': deep}}}]\n"
        "open('/grader/out/executed.ipynb', 'w').write(json.dumps(sent))\nos.kill(os.getppid(), 9)\n")


def repeated_records(count):
    """Write the executed notebook with `count` exports of the one expected check in sums-test,
    then kill the runner: an executed file within the output cap, read back by the grader."""
    record = {"output_type": "display_data", "metadata": {}, "data": {
        "application/vnd.jaxcourse.check+json": {"name": "sums of a 4x5 table", "options": {},
                                                 "value": {"kind": "none"}}}}
    return prepend(
        "import json, os\nsent = json.load(open('/grader/in/submission.ipynb'))\n"
        "for cell in sent['cells']:\n"
        "    if cell['metadata'].get('nbgrader', {}).get('grade_id') == 'sums-test':\n"
        f"        cell['outputs'] = [{record!r}] * {count}\n"
        "open('/grader/out/executed.ipynb', 'w').write(json.dumps(sent))\nos.kill(os.getppid(), 9)\n")


def without_nbgrader_metadata(nb):
    for cell in nb.cells:
        cell.metadata.pop("nbgrader", None)


def put_beside(course, student, name, data=b""):
    path = course.submitted / student / "tiny" / name
    path.write_bytes(data)
    return path


@pytest.fixture(scope="module")
def round4(tmp_path_factory):
    """One class of hostile and Colab-shaped folders beside an honest student, graded by the
    command line: it must finish, write every row, and exit 0 (no grader bug is left to hit)."""
    import os
    from jaxcourse.cli import main
    from jaxcourse.authoring.release import release
    from jaxcourse.grading.report import read_csv
    course = fresh_tiny(tmp_path_factory.mktemp("round4"))
    source = nbformat.read(course.lesson_notebook("tiny"), as_version=4)
    for cell in source.cells:  # an exception check, so a submission can name a class to the grader
        if cell.get("id") == "checkpoint-test":
            cell.source = cell.source.replace("### END HIDDEN TESTS", RAISES_CHECK + "### END HIDDEN TESTS")
    nbformat.write(source, course.lesson_notebook("tiny"))
    release(course, ["tiny"])

    for student in ("honest", "hoarder", "odd-folder"):
        submit_solution(course, student)
    put_beside(course, "honest", "timestamp.txt", b"2026-01-05 10:00:00.000000 UTC")
    # Beside a correct notebook: a tree deeper than the stack, 1,500 entries, a 600 MiB timestamp.txt.
    deep = course.submitted / "hoarder" / "tiny" / "d"
    nested_folders(deep.parent, 1200)
    for i in range(1500):
        put_beside(course, "hoarder", f"scratch-{i}.txt")
    with open(course.submitted / "hoarder" / "tiny" / "timestamp.txt", "wb") as handle:
        handle.truncate(600 * 2**20)  # sparse: 600 MiB to whoever reads it
    # A linked timestamp.txt, and a notebook whose name is not UTF-8 and holds a terminal escape.
    os.symlink("/etc/passwd", course.submitted / "odd-folder" / "tiny" / "timestamp.txt")
    put_beside(course, "odd-folder", os.fsdecode(b"notes-\xff\x1b[2J.ipynb"), b"{}")
    linked = submit_solution(course, "linked-notebook")
    linked.unlink()
    linked.symlink_to(course.submitted / "honest" / "tiny" / "tiny.ipynb")
    submit_solution(course, "dlopen", edit=forged_raise("ctypes.cdll.rt4nolib"))
    submit_solution(course, "repeats", edit=repeated_records(80_000))
    submit_solution(course, "deep-output", edit=deep_output(440))
    # Colab's "Save a copy in Drive" name, with the nbgrader metadata lost and the cell ids kept.
    for student, names, edit in (("colab", ["Copy of tiny.ipynb"], without_nbgrader_metadata),
                                 ("two-copies", ["Copy of tiny.ipynb", "tiny (1).ipynb"], None)):
        path = submit_solution(course, student, edit=edit)
        for name in names:
            put_beside(course, student, name, path.read_bytes())
        path.unlink()

    try:
        status = main(["grade", "tiny", "--course-dir", str(course.root), "--quiet"])
        rows = {}
        for row in read_csv(course.grades / "tiny.csv"):
            rows.setdefault(row["student_id"], {})[row["grade_id"]] = row
        yield course, status, rows
    finally:
        safefs.remove_tree(deep)  # pytest's own clean-up of old temporary folders recurses


def test_a_hostile_class_finishes_writes_every_row_and_exits_0(round4):
    course, status, rows = round4
    assert status == 0
    assert sorted(rows) == ["colab", "deep-output", "dlopen", "hoarder", "honest", "linked-notebook", "odd-folder",
                            "repeats", "two-copies"]
    assert all(len(cells) == 2 for cells in rows.values()), rows
    for student in ("honest", "hoarder", "odd-folder", "colab"):
        assert [r["status"] for r in rows[student].values()] == ["ok", "ok"], (student, rows[student])


def test_a_folder_deeper_than_the_stack_beside_the_notebook_is_never_entered(round4):
    from jaxcourse.grading.report import write_lesson_feedback
    course, _, rows = round4
    assert rows["hoarder"]["sums-test"]["detail"].startswith("1 hidden check(s) passed")
    written, skipped = write_lesson_feedback(course, "tiny")  # jaxcourse feedback takes the same path
    assert course.feedback / "hoarder" / "tiny" / "tiny.html" in written, skipped


def test_a_crowded_folder_is_looked_at_up_to_its_entry_cap(round4):
    _, _, rows = round4
    assert "the folder holds more than 1000 entries" in rows["hoarder"]["sums-test"]["detail"]


def test_timestamp_txt_is_read_within_its_cap_and_never_through_a_link(round4):
    course, _, rows = round4
    assert "timestamp.txt ignored: 629145600 bytes, over the 1024-byte limit" in rows["hoarder"]["sums-test"]["detail"]
    assert "timestamp.txt ignored: not a regular file" in rows["odd-folder"]["sums-test"]["detail"]
    autograded = course.autograded
    assert (autograded / "honest" / "tiny" / "timestamp.txt").read_text() == "2026-01-05 10:00:00.000000 UTC"
    assert not (autograded / "hoarder" / "tiny" / "timestamp.txt").exists()
    assert not (autograded / "odd-folder" / "tiny" / "timestamp.txt").exists()


def test_file_names_of_any_bytes_reach_the_csv_as_inert_text(round4):
    _, _, rows = round4
    detail = rows["odd-folder"]["sums-test"]["detail"]
    assert "ignored extra notebooks: 'notes-\ufffd\\x1b[2J.ipynb'" in detail, detail


def test_a_linked_notebook_is_not_followed(round4):
    _, _, rows = round4
    for row in rows["linked-notebook"].values():
        assert row["status"] == "missing" and "tiny.ipynb is not a regular file (links are not followed)" in row["detail"]


def test_an_exported_exception_name_runs_nothing_in_the_grader(round4):
    _, _, rows = round4
    row = rows["dlopen"]["checkpoint-test"]
    assert row["status"] == "failed", row
    assert "raised ctypes.cdll.rt4nolib, expected builtins.IndexError" in row["detail"]
    assert rows["honest"]["checkpoint-test"]["status"] == "ok"  # the exception check itself passes honestly


def test_an_executed_notebook_of_80000_exports_is_refused_before_it_is_read(round4):
    _, _, rows = round4
    for row in rows["repeats"].values():
        assert row["status"] == "error" and "holds more than 12000 outputs" in row["detail"], row


def test_an_executed_notebook_nested_past_the_bound_is_refused_before_it_is_copied(round4):
    _, _, rows = round4
    for row in rows["deep-output"].values():
        assert row["status"] == "error" and "nests deeper than 100 levels" in row["detail"], row


def test_a_colab_copy_is_graded_when_it_is_the_only_notebook(round4):
    _, _, rows = round4
    for row in rows["colab"].values():
        assert "graded 'Copy of tiny.ipynb' as tiny.ipynb" in row["detail"], row
    for row in rows["two-copies"].values():
        assert row["status"] == "missing", row
        assert "2 notebooks could be it: 'Copy of tiny.ipynb', 'tiny (1).ipynb'" in row["detail"]


def test_lost_nbgrader_metadata_is_restored_by_cell_id(round4):
    _, _, rows = round4
    for row in rows["colab"].values():
        assert "nbgrader metadata of 4 cell(s) restored from the lesson by cell id" in row["detail"], row


def test_feedback_and_the_class_report_run_on_the_hostile_class(round4):
    from jaxcourse.cli import main
    course, _, _ = round4
    assert main(["feedback", "tiny", "--course-dir", str(course.root)]) == 0
    assert main(["report", "tiny", "--course-dir", str(course.root)]) == 0
    assert (course.feedback / "colab" / "tiny" / "tiny.html").is_file()


# ---------------------------------------------------------------- a fault in any stage fails one student

def marked(nb):
    """A correct answer whose test cell prints a marker, so a fault can pick this student's cell."""
    answer("def column_sums(table):\n    print('fault-here')\n    return table.sum(axis=0)\n")(nb)


def test_a_fault_at_any_stage_fails_only_its_student(tmp_path, monkeypatch):
    """An arbitrary exception raised for one student in collect, hashing, sanitize, scoring or
    recording, or while writing feedback, becomes that student's rows; the class is graded and written."""
    from jaxcourse.grading import collect as collecting, grade as grading, record, report
    from jaxcourse.grading.collect import Submission
    from jaxcourse.grading.grade import Options, grade_lesson
    from jaxcourse.grading.report import read_csv, write_lesson_feedback
    course = fresh_tiny(tmp_path)
    faults = {  # student: (stage, owner, function, whether this call is the student's, exception)
        "f-collect": ("collect", collecting, "scan", lambda student, *_: student == "f-collect", RuntimeError),
        "f-hashing": ("hashing", Submission, "content_hash", lambda sub: sub.student == "f-hashing", RecursionError),
        "f-sanitize": ("sanitize", grading, "read_submission", lambda path: "f-sanitize" in path.parts, KeyError),
        "f-scoring": ("scoring", grading, "score_cell",
                      lambda _id, _points, cell, *_: "fault-here" in str(cell), ZeroDivisionError),
        "f-autograded": ("recording", grading, "write_autograded", lambda _c, _l, student, *_: student == "f-autograded",
                         UnicodeError),
        "f-gradebook": ("recording", grading, "record_grades", lambda _c, _l, student, *_: student == "f-gradebook",
                        AttributeError),
        "f-ledger": ("recording", record.LedgerEntry, "save", lambda entry, *_: entry.student == "f-ledger", TypeError),
    }
    for student in ("a", *faults, "z"):
        submit_solution(course, student, edit=marked if student == "f-scoring" else None)
    for student, (_, owner, name, mine, error) in faults.items():
        real = getattr(owner, name)

        def faulty(*args, real=real, mine=mine, error=error, **kwargs):
            if mine(*args, **kwargs):
                raise error("an injected fault")
            return real(*args, **kwargs)
        monkeypatch.setattr(owner, name, faulty)

    summary = grade_lesson(course, "tiny", Options(log=lambda *_: None))
    rows = {}
    for row in read_csv(summary.csv_path):
        rows.setdefault(row["student_id"], []).append(row)
    assert sorted(rows) == sorted(["a", *faults, "z"]) and all(len(r) == 2 for r in rows.values())
    for student in ("a", "z"):
        assert [r["status"] for r in rows[student]] == ["ok", "ok"], rows[student]
    for student, (stage, *_, error) in faults.items():
        for row in rows[student]:
            assert row["status"] == "internal-error" and row["points"] == "0", row
            assert f"{error.__name__}: " in row["detail"] and f"stage: {stage}" in row["detail"], row
        assert record.LedgerEntry.load(course, "tiny", student) is None  # not final: graded again next run
    assert summary.internal_errors == len(faults) and "an injected fault" in summary.error_log.read_text()

    real_page = report.write_feedback

    def page_fails_for_a(course_, lesson, student, *args):
        if student == "a":
            raise MemoryError("an injected fault")
        return real_page(course_, lesson, student, *args)
    monkeypatch.setattr(report, "write_feedback", page_fails_for_a)
    written, skipped = write_lesson_feedback(course, "tiny")
    assert written == [course.feedback / "z" / "tiny" / "tiny.html"]
    assert "a: feedback failed: MemoryError: an injected fault" in skipped
