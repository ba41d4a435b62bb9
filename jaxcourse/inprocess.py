"""`jaxcourse check-source --in-process` (or `python -m jaxcourse.inprocess`): the instructor's
lessons run kernel-free, one after another in this one process.

For a host where no Jupyter kernel can start (no sockets) and no sandbox can (no user
namespaces), and whose chip one process at a time may hold: each lesson's mutation notebook
(the one `check-lesson` runs) executes in a fresh IPython shell here, and the grader's own code
judges it: the solution as a trusted run, then every mutant. Trusted notebooks only: nothing is
sandboxed. Nothing imported here imports nbgrader, papermill or nbclient.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import gc
import io
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from nbformat.notebooknode import NotebookNode
from traitlets.config import Config

from .course import PLATFORMS, Course, CourseError
from .execute import KERNEL_DIR, UNDRAWN_FIGURES, Execution, Limits
from .platforms import TABLE
from .mutation import judge_mutants, run_mutation_notebook
from .safefs import atomic_write
from .score import compare
from .trusted import lesson_env, script_env, solution_failures, source_hash

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TAIL = 3000  # characters of a failing cell's printed output kept in the report


# ---------------------------------------------------------------- a kernel-free notebook run

def _jsonable(data: dict) -> dict:
    """As the data would arrive from a kernel: through JSON."""
    return json.loads(json.dumps(data, default=str))


class _Publisher(DisplayPublisher):
    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        self.shell.outputs.append(NotebookNode(output_type="display_data", data=_jsonable(data),
                                               metadata=_jsonable(metadata or {})))


class _Hook(DisplayHook):
    """A cell's value becomes an execute_result, as ipykernel sends it; nothing is printed."""

    def start_displayhook(self):
        pass

    def write_output_prompt(self):
        pass

    def write_format_data(self, format_dict, md_dict=None):
        self.shell.outputs.append(NotebookNode(output_type="execute_result", data=_jsonable(format_dict),
                                               metadata=_jsonable(md_dict or {}),
                                               execution_count=self.shell.execution_count))

    def finish_displayhook(self):
        pass


class _Stream(io.TextIOBase):
    """stdout or stderr of the cell being run, as stream outputs (consecutive writes merged)."""

    def __init__(self, shell: "RecordingShell", name: str):
        self.shell, self.name = shell, name

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        outputs = self.shell.outputs
        if outputs and outputs[-1].output_type == "stream" and outputs[-1].name == self.name:
            outputs[-1].text += text
        elif text:
            outputs.append(NotebookNode(output_type="stream", name=self.name, text=text))
        return len(text)


class RecordingShell(InteractiveShell):
    """IPython without a kernel: what each cell prints, displays, returns or raises is kept as
    the nbformat outputs a kernel run leaves (ipykernel's error content: ename, evalue, traceback)."""

    display_pub_class = _Publisher
    displayhook_class = _Hook

    def __init__(self, **kwargs):
        self.outputs: list[NotebookNode] = []
        super().__init__(**kwargs)

    def _showtraceback(self, etype, evalue, stb):
        self.outputs.append(NotebookNode(output_type="error", ename=str(etype.__name__), evalue=str(evalue),
                                         traceback=list(stb)))


class CellTimeout(Exception):
    """A cell ran past the cell timeout (the sandboxed runner's error has the same name)."""


def _expire(signum, frame):
    raise CellTimeout("cell ran past its time limit")


def run_cell(shell: RecordingShell, cell: NotebookNode, timeout: int) -> None:
    """Run one code cell, leaving its outputs and execution count on it as a kernel run would."""
    shell.outputs = cell.outputs = []
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(_Stream(shell, "stdout")), contextlib.redirect_stderr(_Stream(shell, "stderr")):
            result = shell.run_cell(cell.source, store_history=True)
        cell.execution_count = result.execution_count
        timed_out = isinstance(result.error_in_exec, CellTimeout)
    except CellTimeout:  # raised in IPython's own code, outside the cell's
        cell.outputs.append(NotebookNode(output_type="error", ename="CellTimeout", evalue="", traceback=[]))
        timed_out = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if timed_out:
        cell.metadata["jaxcourse_timeout"] = timeout  # what score_cell reads as a timeout


def execute_here(nb: NotebookNode, cell_timeout: int) -> Execution:
    """Every code cell of `nb`, in order, in a fresh shell (an empty namespace); a cell that
    raises leaves an error output and the next cell still runs."""
    start = time.monotonic()
    executed = copy.deepcopy(nb)
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    shell = RecordingShell.instance(config=config, colors="nocolor")
    try:
        for cell in executed.cells:
            if cell.cell_type == "code":
                run_cell(shell, cell, cell_timeout)
    finally:
        shell.reset(new_session=False)  # drops the lesson's arrays before the next lesson
        RecordingShell.clear_instance()
    return Execution(notebook=executed, seconds=time.monotonic() - start)


# ---------------------------------------------------------------- one process, many lessons

class Process:
    """This process's JAX, environment and working folder, reset for each lesson.

    A kernel starts each lesson afresh; here the lesson gets its environment (grade.lesson_env's
    variables), an empty working folder and, on the CPU, a new backend with the devices it
    declares; afterwards every JAX setting goes back to its value at start, and caches are cleared.
    """

    def __init__(self, platform: str):
        # Before `import jax`, which reads JAX_PLATFORMS once; the figures backend of graded runs.
        os.environ["JAX_PLATFORMS"] = TABLE[platform].jax_platforms
        os.environ.update(UNDRAWN_FIGURES)
        sys.path.append(str(KERNEL_DIR / "figures"))
        import jax
        import jax.extend.backend

        self.jax, self.platform = jax, platform
        jax.config.update("jax_platforms", TABLE[platform].jax_platforms)
        self.config = dict(jax.config.values)

    def devices_missing(self, wanted: int) -> str:
        """Why a lesson that needs `wanted` devices cannot run here, or ''."""
        if TABLE[self.platform].virtual_devices:
            return ""  # the CPU backend is rebuilt with as many as the lesson declares
        have = self.jax.device_count()
        return f"it needs {wanted} devices and this {self.platform} process has {have}" if wanted > have else ""

    @contextlib.contextmanager
    def lesson(self, env: dict[str, str]):
        """Run a lesson inside; the notes list what could not be put back afterwards."""
        jax, notes = self.jax, []
        environ, cwd, path, main = dict(os.environ), os.getcwd(), list(sys.path), sys.modules.get("__main__")
        os.environ.update(env)
        if TABLE[self.platform].virtual_devices:  # a new backend with the lesson's devices (JAX_NUM_CPU_DEVICES is read at import)
            jax.extend.backend.clear_backends()
            jax.config.update("jax_num_cpu_devices",
                              int(env.get("JAX_NUM_CPU_DEVICES", self.config["jax_num_cpu_devices"])))
        with tempfile.TemporaryDirectory(prefix="jaxcourse-lesson-") as home:
            os.chdir(home)
            try:
                yield notes
            finally:
                os.chdir(cwd)
                os.environ.clear()
                os.environ.update(environ)
                sys.path[:] = path
                sys.modules["__main__"] = main
                if "matplotlib.pyplot" in sys.modules:
                    sys.modules["matplotlib.pyplot"].close("all")
                for name, value in self.config.items():
                    if name != "jax_num_cpu_devices" and jax.config.values.get(name) != value:
                        try:
                            jax.config.update(name, value)
                        except Exception as exc:  # noted in the report: later lessons may see it
                            notes.append(f"could not reset {name}: {type(exc).__name__}: {exc}")
                jax.clear_caches()
                gc.collect()


def _error_text(cell: NotebookNode) -> dict:
    """A failing cell's error and the end of what it printed, for the report."""
    for output in cell.get("outputs", []):
        if output.get("output_type") == "error":
            error = {"ename": output.get("ename"), "evalue": output.get("evalue"),
                     "traceback": ANSI.sub("", "\n".join(output.get("traceback", [])))}
            break
    else:
        error = None
    printed = "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("output_type") == "stream")
    return {"error": error, "output_tail": printed[-TAIL:]}


def check_here(course: Course, lesson: str, process: Process, cell_timeout: int) -> dict:
    """Run and judge one lesson here; its report entry."""
    start = time.monotonic()
    with process.lesson(lesson_env(course, lesson, process.platform)) as notes:
        done = run_mutation_notebook(course, lesson, lambda nb: execute_here(nb, cell_timeout))
    failures, checks = solution_failures(process.platform, done.execution, done.solution, done.receipt)
    cells = {cell.metadata.nbgrader.grade_id: cell for cell in done.solution.cells
             if cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")}
    failing = [{"cell": where, "why": why, **(_error_text(cells[where]) if where in cells else {})}
               for where, why in failures]
    if failing:
        problems, judged = ["not judged: the solution does not pass its own tests"], 0
    else:
        verdicts = judge_mutants(done, checks)
        problems, judged = [p for verdict in verdicts for p in verdict.problems()], len(verdicts)
    accepted = sorted({p.split(":", 1)[0] for p in problems if " accepted the mutant " in p})
    return {"status": "FAIL" if failing or problems else "ok", "seconds": round(time.monotonic() - start, 1),
            "receipt": done.receipt, "failing_cells": failing, "mutants": judged, "mutant_problems": problems,
            "accepted_mutants": accepted, "notes": notes,
            "expected": {"source_hash": source_hash(course, lesson), "platform": process.platform,
                         "receipt": done.receipt, "checks": checks}}


def run_example(course: Course, lesson: str, platform: str, timeout: int) -> dict:
    """The lesson's "Run the example" program, exercises/<id>.py, in a process of its own."""
    start = time.monotonic()
    path = course.root / "exercises" / f"{lesson}.py"
    if not path.is_file():
        return {"status": "FAIL", "seconds": 0.0, "why": f"{path} does not exist"}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-example-") as scratch:
        try:
            done = subprocess.run([sys.executable, str(path)], cwd=scratch, env=script_env(course, lesson, platform),
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"status": "FAIL", "seconds": round(time.monotonic() - start, 1),
                    "why": f"ran longer than {timeout}s"}
    lines = done.stdout.rstrip().splitlines()
    last = lines[-1] if lines else ""
    passed = done.returncode == 0 and last == f"PASS: {lesson}"
    return {"status": "ok" if passed else "FAIL", "seconds": round(time.monotonic() - start, 1),
            "why": "" if passed else f"exit status {done.returncode}, last line {last!r}",
            "stdout_tail": done.stdout[-TAIL:], "stderr_tail": "" if passed else done.stderr[-TAIL:]}


# ---------------------------------------------------------------- selection, report, command line

def select(course: Course, lessons: list[str], platform: str, shard: str | None) -> tuple[list[str], list[str]]:
    """The lessons to run (this shard's, in course order), and a line for each one left out."""
    chosen, skipped = [], []
    for lesson in course.select(lessons):
        platforms = course.info(lesson).platforms
        if platform in platforms:
            chosen.append(lesson)
        else:
            skipped.append(f"skip {lesson}: it declares platforms {', '.join(platforms)}, not {platform}")
    if shard:
        k, n = (int(part) for part in shard.split("/"))
        if not 1 <= k <= n:
            raise CourseError(f"--shard {shard}: K/N with 1 <= K <= N")
        chosen = chosen[k - 1::n]  # every N-th: a shard gets lessons from every phase, so shards take alike
    return chosen, skipped


def _load(path: Path | None) -> dict:
    if path is None or not path.is_file():
        return {}
    try:
        return json.loads(path.read_text())
    except ValueError as exc:
        raise CourseError(f"{path}: not a report ({exc})") from None


def _line(kind: str, lesson: str, entry: dict) -> str:
    head = f"{'ok  ' if entry['status'] == 'ok' else 'FAIL'} {lesson}"
    if kind == "examples":
        return f"{head}: {'PASS' if entry['status'] == 'ok' else entry['why']} ({entry['seconds']}s)"
    if entry["status"] in ("crashed", "error"):
        return f"FAIL {lesson}: {entry['status']}: {entry['why']}"
    backend = (entry["receipt"] or {}).get("backend")
    cells = "; ".join(f"{f['cell']}: {f['why']}" for f in entry["failing_cells"])
    if cells:
        return f"{head}: failing cells: {cells} ({entry['seconds']}s on {backend})"
    mutants = (f", accepted mutants: {', '.join(entry['accepted_mutants'])}" if entry["accepted_mutants"] else "")
    problems = "".join(f"\n    {p}" for p in entry["mutant_problems"])
    return (f"{head}: {len(entry['expected']['checks'])} graded cells pass, {entry['mutants']} mutants judged"
            f"{mutants} ({entry['seconds']}s on {backend}){problems}")


def check_in_process(args) -> int:
    """Run the selected lessons (or, with --examples, their example programs); 1 on any failure."""
    course, kind = Course.at(args.course_dir), "examples" if args.examples else "lessons"
    todo, skipped = select(course, args.lessons, args.platform, args.shard)
    for line in skipped:
        print(line)
    report_path = Path(args.report) if args.report else None
    report = {**_load(report_path), "platform": args.platform}
    done = _load(Path(args.skip_done)).get(kind, {}) if args.skip_done else {}
    entries = report.setdefault(kind, {})

    def save() -> None:
        if report_path:
            atomic_write(report_path, json.dumps(report, indent=1, sort_keys=True))

    process = None if args.examples else Process(args.platform)  # examples need the chip free
    if process is not None:
        report["jax"] = process.jax.__version__
    failed = 0
    for lesson in todo:
        if lesson in done:
            entry = done[lesson]
            if entry["status"] == "running":  # the process ended in it: recorded, not retried
                entry = {"status": "crashed", "seconds": 0.0,
                         "why": "the process ended while running it (a crash, or a time limit)"}
            entries[lesson] = entry
            print(f"done {lesson}: {entry['status']} (from {args.skip_done})")
            failed += entry["status"] != "ok"
            continue
        if kind == "examples":
            entry = run_example(course, lesson, args.platform, args.example_timeout)
        else:
            missing = process.devices_missing(course.info(lesson).devices)
            if missing:
                print(f"skip {lesson}: {missing}")
                continue
            entries[lesson] = {"status": "running"}
            save()
            try:
                entry = check_here(course, lesson, process, args.cell_timeout)
            except Exception as exc:  # a fault of this runner's, not the lesson's: reported, and the next lesson runs
                entry = {"status": "error", "seconds": 0.0, "why": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()}
        entries[lesson] = entry
        save()
        print(_line(kind, lesson, entry), flush=True)
        failed += entry["status"] != "ok"
    save()  # also when every lesson came from --skip-done
    print(f"{len(todo) - failed} of {len(todo)} {kind} ok on {args.platform}"
          + (f"; report: {report_path}" if report_path else ""))
    return 1 if failed else 0


def compare_reports(expected: dict, actual: dict) -> tuple[list[str], int]:
    """Every hidden check whose value in `actual` differs from `expected`'s beyond the
    instructor's tolerance, judged as the grader judges a student's against the instructor's;
    and how many checks were compared."""
    found, compared = [], 0
    theirs = actual.get("lessons", {})
    for lesson, entry in sorted(expected.get("lessons", {}).items()):
        if lesson not in theirs:
            continue
        got_checks = (theirs[lesson].get("expected") or {}).get("checks", {})
        for grade_id, checks in sorted(((entry.get("expected") or {}).get("checks") or {}).items()):
            for name, want in sorted(checks.items()):
                compared += 1
                got = got_checks.get(grade_id, {}).get(name)
                reason = "not exported" if got is None else compare(got["value"], want["value"],
                                                                    want.get("options") or {}, name)
                if reason:
                    found.append(f"{lesson} {grade_id}: {reason}")
    return found, compared


def compare_exports(args) -> int:
    a, b = _load(Path(args.expected)), _load(Path(args.actual))
    found, compared = compare_reports(a, b)
    for line in found:
        print(line)
    print(f"{len(found)} of {compared} hidden checks differ "
          f"({args.expected} on {a.get('platform')} as expected, {args.actual} on {b.get('platform')})")
    return 1 if found else 0


def add_options(p: argparse.ArgumentParser) -> None:
    """The in-process run's own options, for `jaxcourse check-source --in-process` and this module."""
    p.add_argument("--report", metavar="FILE", help="JSON report, rewritten after each lesson")
    p.add_argument("--skip-done", metavar="FILE",
                   help="skip what FILE already reports (one the process ended in counts as failed, not retried)")
    p.add_argument("--shard", metavar="K/N", help="only every N-th selected lesson, starting with the K-th")
    p.add_argument("--examples", action="store_true",
                   help="run each lesson's exercises/<id>.py (one process each) instead of its notebook")
    p.add_argument("--example-timeout", type=int, default=600, metavar="S",
                   help="seconds per exercises/<id>.py run with --examples (default 600)")


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m jaxcourse.inprocess", description=__doc__.split("\n\n")[0])
    p.add_argument("lessons", nargs="*", metavar="LESSON", help="lesson ids (default: all that declare --platform)")
    p.add_argument("--course-dir", default=".", help="course folder (default: the current directory)")
    p.add_argument("--platform", choices=PLATFORMS, default="cpu",
                   help="the JAX platform to run on; lessons that do not declare it are skipped (default cpu)")
    p.add_argument("--cell-timeout", type=int, default=Limits.cell_timeout, metavar="S",
                   help=f"seconds per cell (default {Limits.cell_timeout})")
    add_options(p)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        return check_in_process(parser().parse_args(argv))
    except CourseError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
