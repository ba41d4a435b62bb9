"""End to end in a real browser: a learner's JupyterLab with nbgrader's Validate button.

A JupyterLab server from this virtualenv serves a copy of one released lesson from a scratch
folder; headless Chromium (Debian's `chromium` package, driven by Playwright) opens it, types
one exercise's solution and another exercise's plausible wrong answer (one of the lesson's
mutants) into the cell editors, runs the notebook the way a learner does, checks that the wrong
answer's test cell shows the lesson's hint, and presses nbgrader's Validate button. The other
exercises stay unfinished. Nothing leaves the machine: the server listens on the
loopback address, JupyterLab's news and update checks are off, and Chromium resolves no host
names at all.

Needs the Debian packages `chromium chromium-driver` (`make browser-deps` installs them as
root) and the `playwright` Python package from requirements-cpu.txt. Playwright's own browser
download is not used. Screenshots land in the test's tmp_path; their paths are printed
(run with `-s` to see them). A failure keeps the page and the browser's console log under
test-artefacts/ and shows the console's tail in its report.
"""
from __future__ import annotations

import ast
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

from browser_evidence import BrowserEvidence

REPO = Path(__file__).resolve().parents[1]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # No name resolves, so nothing but the loopback server (reached by IP) can be fetched.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]

LESSON = "welcome-02"          # small and quick: numpy-sized arrays, one figure, no sharding
FILLED = "exercise-solution"   # the one exercise the browser fills in
TIMEOUT_MS = 60_000            # any single browser wait; the whole test takes ~25-45 s on 2 cores

CELLS = ".jp-NotebookPanel .jp-Notebook .jp-Cell"
INDICATOR = ".jp-NotebookPanel-toolbar .jp-Notebook-ExecutionIndicator"
# Tracebacks (and anything written to stderr, which these lessons never do) render as this.
ERROR_OUTPUT = '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'


# --- the lesson, read from disk: which cell is which ------------------------------------------

def nbgrader_id(cell: dict) -> str | None:
    return cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")


def source_text(cell: dict) -> str:
    src = cell["source"]
    return src if isinstance(src, str) else "".join(src)


class Lesson:
    """The released notebook, with the index of every solution cell and of the test cell after it."""

    def __init__(self, lesson: str):
        self.name = lesson
        self.release_path = REPO / "release" / lesson / f"{lesson}.ipynb"
        self.source_path = REPO / "source" / lesson / f"{lesson}.ipynb"
        self.cells = json.loads(self.release_path.read_text())["cells"]
        source_cells = json.loads(self.source_path.read_text())["cells"]
        self.source_by_id = {nbgrader_id(c): source_text(c) for c in source_cells if nbgrader_id(c)}
        self.index = {nbgrader_id(c): i for i, c in enumerate(self.cells) if nbgrader_id(c)}
        self.exercises: list[tuple[str, int, int]] = []  # (solution id, solution index, test index)
        for i, cell in enumerate(self.cells):
            meta = cell.get("metadata", {}).get("nbgrader", {})
            if meta.get("solution"):
                test = next(j for j in range(i + 1, len(self.cells))
                            if self.cells[j].get("metadata", {}).get("nbgrader", {}).get("grade"))
                self.exercises.append((meta["grade_id"], i, test))

    def text(self, index: int) -> str:
        return source_text(self.cells[index])

    def solved(self, grade_id: str) -> str:
        """The released cell with its placeholder replaced by the source's solution lines."""
        released = self.text(self.index[grade_id])
        source = self.source_by_id[grade_id]
        match = re.search(r"^[ \t]*### BEGIN SOLUTION\n(.*?)^[ \t]*### END SOLUTION", source, re.M | re.S)
        assert match, f"{self.source_path}: {grade_id} has no ### BEGIN/END SOLUTION block"
        solution = match.group(1).rstrip("\n")
        placeholder = re.compile(r"^[ \t]*# YOUR CODE HERE\n[ \t]*raise NotImplementedError\(\)", re.M)
        assert len(placeholder.findall(released)) == 1, f"{self.release_path}: {grade_id} placeholder"
        filled = placeholder.sub(lambda _: solution, released)
        # The released cell must be the source cell minus its markers, or release/ is stale.
        unmarked = "\n".join(line for line in source.split("\n")
                             if line.strip() not in ("### BEGIN SOLUTION", "### END SOLUTION"))
        assert filled == unmarked, f"release/{LESSON} is out of date with source/{LESSON} ({grade_id})"
        return filled


# --- a wrong answer: one of the lesson's mutants whose test cell's visible asserts catch it -----
#
# source/<lesson>/mutants/*.py: header lines `# replaces: <solution grade_id>` and
# `# fails: <test grade_id>[, ...]`, then the full replacement source of that solution cell.
# Many mutants are only caught by the hidden tests (release/ has none), and several visible
# asserts have f-string messages whose text depends on the wrong values. The test wants a hint
# it can know from the released source alone, so it takes, in file-name order, the first mutant
# (of an exercise other than FILLED) that makes its test cell's visible source fail at an
# `assert ..., "literal"` (or `raise AssertionError("literal")`) with that literal as message.
# For welcome-02 that is practice_prepends (`-s` prints each candidate's outcome): the asserts
# that catch center_* and practice_flattens have f-string messages, challenge_no_check and
# practice_as_column die in JAX with a TypeError, and challenge_only_too_many and
# checkpoint_keeps_rows pass the visible asserts (hidden tests catch them). So welcome-02 has a
# suitable mutant and no other lesson is needed.

MUTANT_HEADER = re.compile(r"^# (replaces|fails):[ \t]*(.+?)[ \t]*$")


@dataclass(frozen=True)
class Mutant:
    name: str
    replaces: str             # grade_id of the solution cell it rewrites
    fails: tuple[str, ...]    # grade_ids of the test cells that must reject it
    body: str                 # what goes into the solution cell: the file minus its header lines


def lesson_mutants(lesson: str) -> list[Mutant]:
    found = []
    for path in sorted((REPO / "source" / lesson / "mutants").glob("*.py")):
        lines = path.read_text().split("\n")
        header: dict[str, str] = {}
        while lines and (match := MUTANT_HEADER.match(lines[0])):
            header[match.group(1)] = match.group(2)
            lines.pop(0)
        assert {"replaces", "fails"} <= header.keys(), f"{path}: no '# replaces:' / '# fails:' header"
        body = "\n".join(lines).strip("\n")
        assert body, f"{path}: empty body"
        fails = tuple(part.strip() for part in header["fails"].split(",") if part.strip())
        found.append(Mutant(path.stem, header["replaces"], fails, body))
    return found


def literal_hint(source: str, line: int) -> str | None:
    """The message of the innermost `assert ..., "literal"` or `raise AssertionError("literal")`
    statement of `source` that spans `line`; None when that statement is anything else."""
    spanning = [node for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.stmt) and node.lineno <= line <= (node.end_lineno or node.lineno)]
    if not spanning:
        return None
    node = max(spanning, key=lambda n: n.lineno)  # statements nest, so the last-starting is innermost
    if isinstance(node, ast.Assert):
        message = node.msg
    elif (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)
          and isinstance(node.exc.func, ast.Name) and node.exc.func.id == "AssertionError"
          and len(node.exc.args) == 1 and not node.exc.keywords):
        message = node.exc.args[0]
    else:
        return None
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        return message.value
    return None


# Runs in a separate Python (this virtualenv, JAX on the CPU, matplotlib's Agg backend): the
# notebook's code cells in order, each in a try (a learner runs past errors), as the browser will
# hold them: FILLED solved, everything else as released. At each candidate's solution cell, a
# copy of the namespace gets the mutant instead and runs on to the candidate's test cell; what
# that test cell raised is reported: exception type, message, and where it was raised.
PROBE_SCRIPT = r"""
import json, sys, traceback
spec = json.load(sys.stdin)
out, sys.stdout = sys.stdout, sys.stderr  # the cells' prints must not mix with the JSON
cells = {int(i): src for i, src in spec["cells"]}

def run(ns, i, source):
    try:
        exec(compile(source, f"<cell {i}>", "exec"), ns)
    except BaseException as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        return {"type": type(exc).__name__, "message": str(exc), "file": frame.filename, "line": frame.lineno}
    return None

ns, results = {"__name__": "__main__"}, {}
for i in sorted(cells):
    for c in spec["candidates"]:
        if c["solution"] == i:
            trial = dict(ns)
            run(trial, i, c["body"])
            for j in sorted(cells):
                if i < j <= c["test"]:
                    raised = run(trial, j, cells[j])
            results[c["name"]] = raised
    run(ns, i, cells[i])
out.write(json.dumps(results))
"""


@dataclass(frozen=True)
class WrongAnswer:
    mutant: Mutant
    solution: int   # cell indices in the notebook
    test: int
    hint: str       # the literal message of the visible assert that catches it


class MutantProbe:
    """Starts the probe at once (it overlaps the server's start); pick() waits for it and chooses."""

    def __init__(self, lesson: Lesson, filled: str, tmp_path: Path, request):
        self.lesson = lesson
        exercises = {sid: (s, t) for sid, s, t in lesson.exercises}
        self.candidates = [m for m in lesson_mutants(lesson.name)
                           if m.replaces != filled and m.replaces in exercises]
        cells = [(i, lesson.solved(filled) if i == lesson.index[filled] else lesson.text(i))
                 for i, c in enumerate(lesson.cells) if c["cell_type"] == "code"]
        spec = {"cells": cells, "candidates": [
            {"name": m.name, "body": m.body, "solution": exercises[m.replaces][0],
             "test": exercises[m.replaces][1]} for m in self.candidates]}
        env = {**os.environ, "JAX_PLATFORMS": "cpu", "MPLBACKEND": "Agg",
               "MPLCONFIGDIR": str(tmp_path / "probe-matplotlib"), "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-c", PROBE_SCRIPT], cwd=tmp_path, env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        request.addfinalizer(lambda: self.process.poll() is None and self.process.kill())
        self.spec = json.dumps(spec)

    def pick(self) -> WrongAnswer:
        try:
            out, err = self.process.communicate(self.spec, timeout=120)
        except subprocess.TimeoutExpired:
            self.process.kill()
            out, err = self.process.communicate()
            pytest.fail(f"the mutant probe took over 120 s:\n{err[-3000:]}")
        assert self.process.returncode == 0, f"the mutant probe failed:\n{err[-3000:]}"
        results = json.loads(out)
        exercises = {sid: (s, t) for sid, s, t in self.lesson.exercises}
        report = []
        for mutant in self.candidates:
            solution, test = exercises[mutant.replaces]
            raised = results[mutant.name]
            hint = None
            if nbgrader_id(self.lesson.cells[test]) not in mutant.fails:
                verdict = f"its header does not name test cell {nbgrader_id(self.lesson.cells[test])}"
            elif raised is None:
                verdict = "passes the visible asserts (only hidden tests catch it)"
            elif raised["type"] != "AssertionError" or raised["file"] != f"<cell {test}>":
                verdict = f"{raised['type']} raised in {raised['file']}, not a visible assert"
            else:
                hint = literal_hint(self.lesson.text(test), raised["line"])
                verdict = "picked" if hint is not None else "the assert's message is not a plain literal"
            shown = raised and f"{raised['type']}: {raised['message']}"
            report.append(f"{mutant.name}: {shown!r} -> {verdict}")
            if hint is not None:
                print("mutant probe:\n  " + "\n  ".join(report))
                assert raised["message"] == hint, (mutant.name, raised, hint)
                return WrongAnswer(mutant, solution, test, hint)
        pytest.fail(f"no mutant of {self.lesson.name} fails a visible assert with a literal hint:\n"
                    + "\n".join(report))


# --- the JupyterLab server --------------------------------------------------------------------

def free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def write_json(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data))


class LabServer:
    def __init__(self, root: Path, url: str, token: str, process: subprocess.Popen, log: Path):
        self.root, self.url, self.token, self.process, self.log = root, url, token, process, log

    def log_tail(self, n: int = 60) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])

    def notebook_url(self, name: str) -> str:
        return f"{self.url}lab/tree/{name}?token={self.token}"


def stop_server(process: subprocess.Popen) -> None:
    """SIGTERM lets the server shut its kernels down; kill by pid whatever outlives it."""
    try:
        import psutil
        descendants = psutil.Process(process.pid).children(recursive=True)
    except Exception:  # psutil missing or the server already gone
        descendants = []
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
    for child in descendants:
        try:
            child.wait(timeout=5)
        except Exception:
            try:
                child.kill()
            except Exception:
                pass


def require_browser() -> None:
    """Fail (not skip) at once when the browser or its driver library is missing."""
    if not (CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(f"{CHROMIUM} is missing: install the Debian packages with "
                    "`apt-get install -y chromium chromium-driver` (or `make browser-deps` as root)")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.fail("the `playwright` Python package is missing: pip install -r requirements-cpu.txt "
                    "(do not run `playwright install`; the test uses Debian's chromium)")


@pytest.fixture
def start_lab(tmp_path, request):
    """Returns start(): JupyterLab (with nbgrader's server and lab extensions) serving a copy of
    the lesson, stopped by a finalizer, kernels included."""
    return lambda: _start_lab(tmp_path, request)


def _start_lab(tmp_path: Path, request) -> LabServer:
    root = tmp_path / "notebooks"
    root.mkdir()
    shutil.copy(Lesson(LESSON).release_path, root / f"{LESSON}.ipynb")

    # Everything Jupyter, IPython, matplotlib or Chromium would write to a home folder goes here.
    home = tmp_path / "home"
    settings = home / "lab-settings"
    env = {key: value for key, value in os.environ.items() if not key.startswith(("JUPYTER", "JPY_"))}
    env.update(
        HOME=str(home),
        JUPYTER_CONFIG_DIR=str(home / "jupyter-config"),
        JUPYTER_DATA_DIR=str(home / "jupyter-data"),
        JUPYTER_RUNTIME_DIR=str(home / "jupyter-runtime"),
        JUPYTERLAB_SETTINGS_DIR=str(settings),
        JUPYTERLAB_WORKSPACES_DIR=str(home / "lab-workspaces"),
        IPYTHONDIR=str(home / "ipython"),
        MPLCONFIGDIR=str(home / "matplotlib"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_DATA_HOME=str(home / "data"),
        JAX_PLATFORMS="cpu",
        PYTHONUNBUFFERED="1",
    )
    # User settings: every cell stays in the DOM (cells are found by index), no news prompt.
    write_json(settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings",
               {"windowingMode": "none"})
    write_json(settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings",
               {"fetchNews": "false", "checkForUpdates": False})

    token = secrets.token_hex(16)
    port = free_loopback_port()
    log = tmp_path / "jupyterlab.log"
    command = [
        sys.executable, "-m", "jupyterlab", "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root}", f"--IdentityProvider.token={token}",
        "--ServerApp.allow_root=True",  # CI containers run as root
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        "--LabApp.extension_manager=readonly",  # the default one lists PyPI
    ]
    with log.open("wb") as out:
        # cwd is the notebook folder: nbgrader's Validate reads nbgrader_config.py from the
        # server's working folder, and must not pick up the course's own config.
        process = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    request.addfinalizer(lambda: stop_server(process))

    server = LabServer(root, f"http://127.0.0.1:{port}/", token, process, log)
    deadline = time.monotonic() + 90
    while True:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited with {process.returncode} before serving:\n{server.log_tail()}")
        try:
            with urllib.request.urlopen(f"{server.url}api/status?token={token}", timeout=2) as reply:
                if reply.status == 200:
                    break
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            pytest.fail(f"JupyterLab did not answer on {server.url} within 90 s:\n{server.log_tail()}")
        time.sleep(0.25)
    return server


# --- the browser ------------------------------------------------------------------------------

@pytest.fixture
def open_browser(tmp_path, request):
    """Returns open(): a page in headless Debian chromium with a fresh profile, closed by a finalizer."""
    def open_page():
        from playwright.sync_api import sync_playwright

        playwright = sync_playwright().start()
        request.addfinalizer(playwright.stop)
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"),  # fresh and empty for every run
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1400, "height": 1000}, env={**os.environ, "HOME": str(tmp_path / "home")},
        )
        request.addfinalizer(context.close)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.pages[0] if context.pages else context.new_page()
        page.failed_requests = []  # e.g. the Colab badge image: no name resolves
        page.on("requestfailed", lambda req: page.failed_requests.append(req.url))
        request.node.browser_evidence = BrowserEvidence(request.node.nodeid)
        request.node.browser_evidence.watch(page)
        return page
    return open_page


# --- helpers on the page ----------------------------------------------------------------------

def cell_state(page) -> list[dict]:
    """For every cell in the notebook: its prompt, editor text and error outputs, from the DOM."""
    return page.evaluate(
        """([cells, errors]) => Array.from(document.querySelectorAll(cells)).map(cell => ({
            prompt: (cell.querySelector('.jp-InputArea-prompt') || {}).textContent || '',
            text: Array.from(cell.querySelectorAll('.jp-InputArea-editor .cm-line'))
                       .map(line => line.textContent).join('\\n'),
            errors: Array.from(cell.querySelectorAll(errors)).map(out => out.textContent),
        }))""",
        [CELLS, ERROR_OUTPUT],
    )


def execution_count(prompt: str) -> int | None:
    match = re.search(r"\[(\d+)\]", prompt)
    return int(match.group(1)) if match else None


def wait_until_run_finished(page, start: int, after_count: int) -> None:
    """Until cell `start` ran (count > after_count), nothing is queued and the kernel is idle."""
    page.wait_for_function(
        """([cells, indicator, start, after]) => {
            const ind = document.querySelector(indicator);
            if (!ind || ind.dataset.status !== 'idle') return false;
            const prompts = Array.from(document.querySelectorAll(cells))
                .map(c => (c.querySelector('.jp-InputArea-prompt') || {}).textContent || '');
            if (prompts.some(p => p.includes('*'))) return false;
            const m = /\\[(\\d+)\\]/.exec(prompts[start]);
            return m !== null && Number(m[1]) > after;
        }""",
        arg=[CELLS, INDICATOR, start, after_count],
        timeout=120_000,
    )


def menu(page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-item", has=page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(f"^{re.escape(top)}$"))).click()
    page.locator(".lm-Menu-item", has=page.locator(".lm-Menu-itemLabel", has_text=re.compile(f"^{re.escape(item)}$"))).click()


def select_cell(page, index: int) -> None:
    """Make cell `index` the active cell in command mode, by clicking its prompt."""
    cell = page.locator(CELLS).nth(index)
    for _ in range(5):  # a click can land on a neighbour while outputs still change the layout
        cell.locator(".jp-InputPrompt").click()
        try:
            page.wait_for_function(
                "([cells, i]) => document.querySelectorAll(cells)[i].classList.contains('jp-mod-active')",
                arg=[CELLS, index], timeout=2_000)
            return
        except Exception:
            print(f"cell {index} did not become active after a click; clicking again")
    raise AssertionError(f"could not select cell {index}")


def scroll_to_top(cell) -> None:
    cell.evaluate("cell => cell.scrollIntoView({block: 'start'})")


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1].strip()


def shoot(page, path: Path, locator=None) -> Path:
    (locator or page).screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path


def type_into_cell(page, index: int, text: str) -> None:
    """Replace cell `index`'s source through its editor: select all, insert the text in one go (no
    per-key auto-indent or bracket closing), read back what the editor holds, leave edit mode."""
    editor = page.locator(CELLS).nth(index).locator(".jp-InputArea-editor .cm-content")
    editor.click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)
    page.wait_for_function(
        """([cells, i, want]) => Array.from(document.querySelectorAll(cells)[i]
              .querySelectorAll('.jp-InputArea-editor .cm-line')).map(l => l.textContent).join('\\n') === want""",
        arg=[CELLS, index, text], timeout=10_000,
    )
    page.keyboard.press("Escape")  # back to command mode


# --- the test ---------------------------------------------------------------------------------

def test_fill_one_exercise_run_all_and_validate(start_lab, open_browser, tmp_path, request):
    require_browser()
    started = time.monotonic()
    lesson = Lesson(LESSON)
    probe = MutantProbe(lesson, FILLED, tmp_path, request)  # runs while the server starts
    lab = start_lab()
    page = open_browser()
    solution = lesson.solved(FILLED)
    filled_index = lesson.index[FILLED]
    exercises = {sid: (s, t) for sid, s, t in lesson.exercises}
    filled_test = exercises[FILLED][1]

    # Open the notebook; its kernel starts and goes idle.
    page.goto(lab.notebook_url(f"{LESSON}.ipynb"))
    page.wait_for_function(f"document.querySelectorAll({json.dumps(CELLS)}).length === {len(lesson.cells)}")
    page.wait_for_selector(f'{INDICATOR}[data-status="idle"]')
    page.wait_for_selector(".jp-StatusBar-Widget:has-text('Python 3 (ipykernel) | Idle')")
    cells = page.locator(CELLS)

    # One other exercise gets a plausible wrong answer, the rest stay unfinished.
    wrong = probe.pick()
    wrong_id = nbgrader_id(lesson.cells[wrong.solution])
    print(f"wrong answer: mutant {wrong.mutant.name} in {wrong_id} (cell {wrong.solution}); its test cell "
          f"{wrong.test} should fail with AssertionError: {wrong.hint}")
    unfinished = [(sid, s, t) for sid, s, t in lesson.exercises if sid not in (FILLED, wrong_id)]
    assert unfinished, "the lesson needs a third exercise to leave unfinished for this test"
    typed = {filled_index: solution, wrong.solution: wrong.mutant.body}
    # Every test cell that must fail, in notebook order: the unfinished ones and the wrong answer's.
    failing_tests = sorted([t for _, _, t in unfinished] + [wrong.test])
    hint_line = f"AssertionError: {wrong.hint}"  # the traceback's last line under the wrong answer's test

    before = cell_state(page)
    for index in typed:
        assert before[index]["text"] == lesson.text(index), f"cell index {index} does not match the DOM"
        assert "raise NotImplementedError()" in before[index]["text"]

    # Fill in the exercise and the wrong answer through the editor, verifying what it holds.
    for index, text in typed.items():
        type_into_cell(page, index, text)

    # Run > Run All Cells. JupyterLab stops a run at the first error (the wrong answer's or the
    # next unfinished exercise's test), so then keep going the way a learner does: "Run Selected
    # Cell and All Below" from the first cell that has not run, until every code cell has run.
    menu(page, "Run", "Run All Cells")
    first_code = next(i for i, c in enumerate(lesson.cells) if c["cell_type"] == "code")
    wait_until_run_finished(page, first_code, 0)
    after_run_all = cell_state(page)
    scroll_to_top(cells.nth(filled_index))  # the filled exercise, and the error right after it
    shoot(page, tmp_path / "after-run-all.png")

    # What run-all shows: every cell up to the first failing test cell ran without an error, and
    # that test cell stopped the run: with the hint if it is the wrong answer's, else with the
    # placeholder's NotImplementedError. The cells after it are normally skipped ("aborted"), but
    # the kernel only aborts the requests that reached it before the error, so under load some
    # still run: not asserted.
    first_stop = failing_tests[0]
    for i, cell in enumerate(after_run_all[:first_stop]):
        if lesson.cells[i]["cell_type"] == "code":
            assert execution_count(cell["prompt"]) is not None, f"cell {i} did not run: {cell}"
            assert cell["errors"] == [], f"cell {i} failed during run-all: {cell['errors']}"
    stop_errors = after_run_all[first_stop]["errors"]
    if first_stop == wrong.test:
        assert stop_errors and last_line(stop_errors[-1]) == hint_line, after_run_all[first_stop]
    else:
        assert any("NotImplementedError" in e for e in stop_errors), after_run_all[first_stop]
    print("cells after the first error that ran anyway:",
          [i for i, c in enumerate(after_run_all) if i > first_stop and execution_count(c["prompt"])])

    state = after_run_all
    while True:
        pending = [i for i, c in enumerate(state)
                   if lesson.cells[i]["cell_type"] == "code" and execution_count(c["prompt"]) is None]
        if not pending:
            break
        highest = max(execution_count(c["prompt"]) or 0 for c in state)
        select_cell(page, pending[0])
        menu(page, "Run", "Run Selected Cell and All Below")
        wait_until_run_finished(page, pending[0], highest)
        state = cell_state(page)
        ran = [i for i, c in enumerate(state) if (execution_count(c["prompt"]) or 0) > highest]
        assert ran and ran[0] == pending[0], f"the run started at {ran[:1]}, not at cell {pending[0]}"
        print(f"run from cell {pending[0]}: ran {ran}, errors in {[i for i in ran if state[i]['errors']]}")
    final = state
    shoot(page, tmp_path / "wrong-answer-hint.png", cells.nth(wrong.test))  # its traceback and hint
    scroll_to_top(cells.nth(unfinished[-1][1]))  # the last exercise: no answer, so two errors
    shoot(page, tmp_path / "after-running-every-cell.png")

    # The filled exercise: its solution and test cells ran without any error output.
    assert execution_count(final[filled_index]["prompt"]) is not None
    assert execution_count(final[filled_test]["prompt"]) is not None
    assert final[filled_index]["errors"] == [] and final[filled_test]["errors"] == [], final[filled_test]
    # The wrong answer: its cell ran cleanly (it is valid code), and its test cell shows exactly
    # one error, the visible assert's AssertionError with the lesson's hint as the message.
    assert execution_count(final[wrong.solution]["prompt"]) is not None
    assert execution_count(final[wrong.test]["prompt"]) is not None
    assert final[wrong.solution]["errors"] == [], final[wrong.solution]
    wrong_errors = final[wrong.test]["errors"]
    assert len(wrong_errors) == 1, wrong_errors
    assert "AssertionError" in wrong_errors[0] and wrong.hint in wrong_errors[0], wrong_errors
    assert last_line(wrong_errors[0]) == hint_line, wrong_errors
    assert "NotImplementedError" not in wrong_errors[0], wrong_errors
    # Every unfinished exercise shows an error, in its solution cell or in its test cell, and
    # it is the placeholder's NotImplementedError (or the NameError of a value never set).
    for sid, sol, test in unfinished:
        errors = final[sol]["errors"] + final[test]["errors"]
        assert errors, f"{sid}: no error output in cells {sol}/{test}"
        assert "NotImplementedError" in "\n".join(errors), f"{sid}: {errors}"
        assert final[test]["errors"], f"{sid}: its test cell {test} shows no error"
    expected_errors = {x for _, s, t in unfinished for x in (s, t)} | {wrong.test}
    no_errors_elsewhere = [i for i, c in enumerate(final) if c["errors"] and i not in expected_errors]
    assert no_errors_elsewhere == [], [final[i] for i in no_errors_elsewhere]

    # Save, and check what reached the disk: the typed solution and wrong answer, verbatim.
    page.keyboard.press("Control+s")
    saved_path = lab.root / f"{LESSON}.ipynb"
    deadline = time.monotonic() + 30
    while True:
        saved = json.loads(saved_path.read_text())["cells"]
        if all(source_text(saved[i]) == text for i, text in typed.items()):
            break
        assert time.monotonic() < deadline, "the notebook on disk never got the typed cells"
        time.sleep(0.25)
    assert [source_text(c) for i, c in enumerate(saved) if i not in typed] == \
        [lesson.text(i) for i in range(len(lesson.cells)) if i not in typed]

    # nbgrader's Validate button (saves, then asks the server extension to run the notebook).
    page.locator("jp-button.validate-button").click()
    dialog = page.locator(".jp-Dialog").filter(has=page.locator("#validation-message"))
    dialog.wait_for(timeout=120_000)
    message = dialog.locator("#validation-message")
    dialog_text = dialog.inner_text()
    print("validate dialog:\n" + dialog_text)
    shoot(page, tmp_path / "validate-dialog.png")
    shoot(page, tmp_path / "validate-dialog-only.png", dialog.locator(".jp-Dialog-content"))

    assert "Validation Results" in dialog_text
    assert "validation-failed" in (message.get_attribute("class") or "")
    assert "Success! Your notebook passes all the tests." not in dialog_text
    # One "failed" entry per failing test cell (the unfinished exercises' and the wrong answer's),
    # in notebook order: its source, then its error. The filled exercise's test cell is not there.
    pres = message.locator(":scope > .jp-RenderedText > pre").all_inner_texts()
    failed_sources, failed_errors = pres[0::2], pres[1::2]
    assert dialog_text.count("The following cell failed:") == len(failing_tests)
    assert [s.strip() for s in failed_sources] == [lesson.text(t).strip() for t in failing_tests]
    assert lesson.text(filled_test).strip() not in [s.strip() for s in failed_sources]
    # Each reported error is the one the learner saw under that test cell in the browser
    # (same exception and message; only the execution counts differ).
    for test, error in zip(failing_tests, failed_errors):
        if test == wrong.test:
            assert "AssertionError" in error and wrong.hint in error, f"{wrong_id}: {error}"
            assert last_line(error) == hint_line, f"{wrong_id}: {error}"
        else:
            assert re.search(r"NotImplementedError|NameError", error), f"cell {test}: {error}"
        assert last_line(error) == last_line(final[test]["errors"][-1]), (test, error, final[test]["errors"])

    dialog.locator(".jp-Dialog-button", has_text="Ok").click()
    elapsed = time.monotonic() - started
    print(f"server start to validated: {elapsed:.1f} s; blocked requests: {page.failed_requests}")


# --- a student's feedback page ----------------------------------------------------------------
#
# A real graded submission of LESSON: the released notebook with the solutions filled in, one
# exercise answered by one of the lesson's mutants, run by the student in a Jupyter kernel (so
# it carries the student's own outputs and figure), graded in the sandbox, and its page written
# by `jaxcourse feedback`. Chromium opens the file with every host name unresolvable and every
# request recorded; the page must need none.

TAG_IN_TEXT = re.compile(r"</?(?:h[1-6]|p|div|span|table|thead|tbody|tr|td|th|ul|ol|li|em|strong|code|pre|a|br|img"
                         r"|details|summary|math|mi|mo|mn|mrow|msub|msup|mfrac)\b[^>]*>")
TEX_IN_TEXT = re.compile(r"\$\$?[^$\n]+\$\$?")


def graded_feedback_page(tmp_path: Path) -> tuple[Path, object, list[str]]:
    """The feedback page of one graded submission, its course, and the lesson's hidden-test lines."""
    import nbclient
    import nbformat
    from conftest import lesson_course, release_nb
    from jaxcourse.authoring import fabricate
    from jaxcourse.grading.grade import Options, grade_lesson
    from jaxcourse.grading.report import write_lesson_feedback
    from jaxcourse.authoring.lessonfile import HIDDEN_REGION

    course = lesson_course(tmp_path, LESSON)
    released = release_nb(course, LESSON)
    wrong = next(m for m in fabricate.mutants(course, LESSON) if m.replaces != FILLED)
    nb = fabricate.solved(course, LESSON, released, wrong)
    env = {"JAX_PLATFORMS": "cpu", "MPLCONFIGDIR": str(tmp_path / "matplotlib")}
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    try:  # the student's own run, as their Jupyter saves it
        nbclient.NotebookClient(nb, kernel_name="python3", timeout=120, allow_errors=True,
                                resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        for key, value in saved.items():
            os.environ.pop(key) if value is None else os.environ.__setitem__(key, value)
    fabricate.submit(course, "student", LESSON, nb)
    summary = grade_lesson(course, LESSON, Options(log=lambda *_: None))
    assert {row["status"] for row in summary.rows} == {"ok", "failed"}, summary.table()
    (page,), skipped = write_lesson_feedback(course, LESSON)
    assert not skipped
    source = nbformat.read(course.lesson_notebook(LESSON), as_version=4)
    hidden = [line.strip() for cell in source.cells for body in HIDDEN_REGION.findall(cell.source)
              for line in body.splitlines() if len(line.strip()) > 12]
    return page, course, hidden


def test_feedback_page_renders_offline_with_the_score_first_and_nothing_hidden(open_browser, tmp_path):
    require_browser()
    page_path, course, hidden = graded_feedback_page(tmp_path)
    html = page_path.read_text()
    assert hidden and not [line for line in hidden if line in html], "a hidden-test line is in the page"
    expected = json.loads((course.state / "expected" / LESSON / "cpu.json").read_text())
    values = re.findall(r'"data": "([A-Za-z0-9+/=]{12,})"', json.dumps(expected["checks"]))
    assert values and not [v for v in values if v in html], "an expected value is in the page"

    page = open_browser()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_path.as_uri())
    page.wait_for_load_state("load")
    text = page.inner_text("body")
    shot = shoot(page, tmp_path / "feedback-top.png")
    page.locator("math").nth(0).scroll_into_view_if_needed()
    shoot(page, tmp_path / "feedback-math.png")
    print(f"feedback page: {page_path}\n" + text[:600])

    # Nothing but the file itself was asked for: no CDN, no font, no image host.
    assert requests == [page_path.as_uri()], requests
    # Headings, paragraphs, code and math render as elements, never as their source text.
    assert not TAG_IN_TEXT.findall(text), TAG_IN_TEXT.findall(text)[:10]
    markdown = "\n".join(page.locator(".jp-MarkdownCell").all_inner_texts())
    assert not TEX_IN_TEXT.findall(markdown), TEX_IN_TEXT.findall(markdown)[:10]
    assert page.locator(".jp-MarkdownCell h2").count() >= 3 and page.locator(".jp-MarkdownCell p").count() >= 10
    assert page.locator(".jp-MarkdownCell h1").first.inner_text().strip() == "Meet your arrays and devices"
    laid_out = page.evaluate("""() => Array.from(document.querySelectorAll('math')).map(m => [
        getComputedStyle(m).display, m.getBoundingClientRect().width, m.textContent])""")
    assert len(laid_out) >= 10 and all(display in ("math", "inline math", "block math") and width > 0
                                       for display, width, _ in laid_out), laid_out[:5]
    assert any(tex.replace(" ", "") == "1+2+3=6" for _, _, tex in laid_out), [t for _, _, t in laid_out][:10]
    assert page.locator(".jp-CodeCell .highlight").count() >= 5  # code cells, highlighted
    assert page.locator(".jp-OutputArea-output img[src^='data:image/png']").count() >= 1  # the student's figure
    # The score summary comes first: title, score, then one line per graded cell.
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    assert lines[0] == "Feedback: Meet your arrays and devices", lines[:3]
    assert re.fullmatch(r"Score: \d+ / 11", lines[2]), lines[:3]
    summary_box = page.locator("#jaxcourse-summary").bounding_box()
    first_cell = page.locator(".jp-Cell").first.bounding_box()
    assert summary_box["y"] + summary_box["height"] <= first_cell["y"]
    assert "failed" in page.locator("#jaxcourse-summary").inner_text()
    assert page.title() == "Feedback: Meet your arrays and devices"
    assert shot.is_file()


PLANTED = """
from test_browser import open_browser  # noqa: F401


def test_planted(open_browser):
    page = open_browser()
    page.set_content("<h1>planted page</h1>")
    page.evaluate("console.warn('planted message'); setTimeout(() => { throw new Error('planted error') }, 0)")
    page.wait_for_function("() => true")
    assert False, "planted failure"
"""


def test_a_failed_chromium_test_keeps_its_page_and_console_log(tmp_path):
    """What CI shows of a browser failure: the console's tail in the report, the page as a file."""
    require_browser()
    (tmp_path / "test_planted.py").write_text(PLANTED)
    env = {**os.environ, "JAXCOURSE_TEST_ARTEFACTS": str(tmp_path / "kept"),
           "PYTHONPATH": os.pathsep.join([str(REPO / "tests"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-p", "browser_evidence",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_planted.py")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout[-3000:]
    report = done.stdout
    assert "Chromium: screenshots and console" in report and "planted failure" in report, report[-3000:]
    assert "warning: planted message" in report, report[-3000:]
    kept = tmp_path / "kept" / "test_planted.py_test_planted"
    assert (kept / "page-0.png").stat().st_size > 1000
    console = (kept / "console.log").read_text()
    assert "pageerror" in console or "planted error" in report, console
