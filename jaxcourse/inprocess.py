"""`jaxcourse check-source --in-process` (or `python -m jaxcourse.inprocess`): the instructor's
lessons run kernel-free, one after another in this one process.

For a host where no Jupyter kernel can start (no sockets) and no sandbox can (no user
namespaces), and whose chip one process at a time may hold: each lesson's mutation notebook
(the one `check-lesson` runs) executes in a fresh IPython shell here (`kernelfree`), and the grader's own code
judges it: the solution as a trusted run, then every mutant. Trusted notebooks only: nothing is
sandboxed. Nothing imported here imports nbgrader, papermill or nbclient.
"""
from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import traceback
from enum import StrEnum
from pathlib import Path

from .kernel import no_format_checkers  # noqa: F401  (an entry point: before anything imports nbformat)

from nbformat.notebooknode import NotebookNode

from .authoring.mutation import judge_mutants, run_mutation_notebook
from .course import PLATFORMS, Course, CourseError
from .grading.score import compare
from .grading.trusted import lesson_env, script_env, solution_failures, source_hash
from .run.limits import Limits
from .run.kernelfree import Process, execute_here
from .run.safefs import atomic_write

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
TAIL = 3000  # characters of a failing cell's printed output kept in the report


class Outcome(StrEnum):
    """A lesson's (or example's) line in the report: not a graded cell's status (grading.score.Status)."""
    OK = "ok"
    FAIL = "FAIL"
    CRASHED = "crashed"     # the process ended while running it, as --skip-done reads the report
    ERROR = "error"         # this runner's own fault
    RUNNING = "running"


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
    return {"status": Outcome.FAIL if failing or problems else Outcome.OK, "seconds": round(time.monotonic() - start, 1),
            "receipt": done.receipt, "failing_cells": failing, "mutants": judged, "mutant_problems": problems,
            "accepted_mutants": accepted, "notes": notes,
            "expected": {"source_hash": source_hash(course, lesson), "platform": process.platform,
                         "receipt": done.receipt, "checks": checks}}


def run_example(course: Course, lesson: str, platform: str, timeout: int) -> dict:
    """The lesson's "Run the example" program, exercises/<id>.py, in a process of its own."""
    start = time.monotonic()
    path = course.root / "exercises" / f"{lesson}.py"
    if not path.is_file():
        return {"status": Outcome.FAIL, "seconds": 0.0, "why": f"{path} does not exist"}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-example-") as scratch:
        try:
            done = subprocess.run([sys.executable, str(path)], cwd=scratch, env=script_env(course, lesson, platform),
                                  capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"status": Outcome.FAIL, "seconds": round(time.monotonic() - start, 1),
                    "why": f"ran longer than {timeout}s"}
    lines = done.stdout.rstrip().splitlines()
    last = lines[-1] if lines else ""
    passed = done.returncode == 0 and last == f"PASS: {lesson}"
    return {"status": Outcome.OK if passed else Outcome.FAIL, "seconds": round(time.monotonic() - start, 1),
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
    head = f"{'ok  ' if entry['status'] == Outcome.OK else 'FAIL'} {lesson}"
    if kind == "examples":
        return f"{head}: {'PASS' if entry['status'] == Outcome.OK else entry['why']} ({entry['seconds']}s)"
    if entry["status"] in (Outcome.CRASHED, Outcome.ERROR):
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
            if entry["status"] == Outcome.RUNNING:  # the process ended in it: recorded, not retried
                entry = {"status": Outcome.CRASHED, "seconds": 0.0,
                         "why": "the process ended while running it (a crash, or a time limit)"}
            entries[lesson] = entry
            print(f"done {lesson}: {entry['status']} (from {args.skip_done})")
            failed += entry["status"] != Outcome.OK
            continue
        if kind == "examples":
            entry = run_example(course, lesson, args.platform, args.example_timeout)
        else:
            missing = process.devices_missing(course.info(lesson).devices)
            if missing:
                print(f"skip {lesson}: {missing}")
                continue
            entries[lesson] = {"status": Outcome.RUNNING}
            save()
            try:
                entry = check_here(course, lesson, process, args.cell_timeout)
            except Exception as exc:  # a fault of this runner's, not the lesson's: reported, and the next lesson runs
                entry = {"status": Outcome.ERROR, "seconds": 0.0, "why": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()}
        entries[lesson] = entry
        save()
        print(_line(kind, lesson, entry), flush=True)
        failed += entry["status"] != Outcome.OK
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
