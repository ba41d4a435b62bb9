"""Grade fabricated students on a TPU with the grader itself: `jaxcourse grade --platform tpu`, papermill kernels.

prepare (here, in the project's venv): a course folder holding every lesson that declares --platform
  (or those named), released, with `student-correct` in each; `student-one-wrong` (the lesson's first
  mutant) and `student-untouched` in each FULL lesson; in pallas-01, `chip-1-breaks` (its mutant
  transfer_grid_one_too_long: the last program reads a block wholly outside its array, which halts
  a TPU) graded just before `chip-2-correct` on the same worker; and `mutant-NAME` for each
  --mutant LESSON/NAME.
run (on the grading host): for each lesson of --shard K/N (or each named, in that order) not yet in
  --report, until --stop-after seconds have passed, the command
  `jaxcourse grade LESSON --platform P --workers 1 --no-compilation-cache --quiet [--unsafe-no-sandbox]`
  (through jaxcourse.cli.main, in this process), then its CSV rows, each run's receipt and seconds
  into --report (JSON, rewritten after each lesson). First, once per report, --chip-opens bare
  processes time `jax.devices()`: what opening the chip costs each submission.
compare: the statuses and points of two reports, student by student (a CPU run against the chip's).

  .venv/bin/python benchmarks/grade_on_chip.py prepare .tpu-course
  python3 benchmarks/grade_on_chip.py run .tpu-course --platform tpu --unsafe-no-sandbox --report tpu-1.json --shard 1/2
  .venv/bin/python benchmarks/grade_on_chip.py compare cpu.json tpu-1.json tpu-2.json
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FULL = ("welcome-02", "jit-01", "optim-02", "nets-04", "recovery-01", "capstone-01", "pallas-01")
BREAKER = ("pallas-01", "transfer_grid_one_too_long")
CHIP_OPEN = ("import time, jax\nstart = time.perf_counter()\njax.devices()\n"
             "print(round(time.perf_counter() - start, 2))\n")


def prepare(args) -> None:
    import nbformat

    from jaxcourse.authoring import fabricate
    from jaxcourse.authoring.release import release
    from jaxcourse.course import Course

    origin, course = Course.at(Path(__file__).resolve().parents[1]), Course.at(args.course)
    if course.root.exists():
        raise SystemExit(f"{course.root} exists; choose a new folder")
    lessons = [lesson for lesson in origin.lessons()
               if args.platform in origin.info(lesson).platforms and (not args.lessons or lesson in args.lessons)]
    wanted = [tuple(name.split("/", 1)) for name in args.mutant]
    for lesson in lessons:
        course.source.mkdir(parents=True, exist_ok=True)
        subprocess.run(["cp", "-r", str(origin.source / lesson), str(course.source / lesson)], check=True)
    release(course, lessons)
    for lesson in lessons:
        release_nb = nbformat.read(course.release / lesson / f"{lesson}.ipynb", as_version=4)
        mutants = {mutant.name: mutant for mutant in fabricate.mutants(course, lesson)}
        fabricate.submit(course, "student-correct", lesson, fabricate.solved(course, lesson, release_nb))
        if lesson in FULL:
            first = mutants[min(mutants)]
            fabricate.submit(course, "student-one-wrong", lesson, fabricate.solved(course, lesson, release_nb, first))
            fabricate.submit(course, "student-untouched", lesson, release_nb)
        if lesson == BREAKER[0]:
            breaker = fabricate.solved(course, lesson, release_nb, mutants[BREAKER[1]])
            fabricate.submit(course, "chip-1-breaks", lesson, breaker)
            fabricate.submit(course, "chip-2-correct", lesson, fabricate.solved(course, lesson, release_nb))
        for name in [name for wanted_lesson, name in wanted if wanted_lesson == lesson]:
            fabricate.submit(course, f"mutant-{name}", lesson, fabricate.solved(course, lesson, release_nb, mutants[name]))
    print(f"{course.root}: {len(lessons)} lessons, {len(list(course.submitted.glob('*/*')))} submissions")


def chip_opens(count: int) -> list[float]:
    seconds = []
    for _ in range(count):
        done = subprocess.run([sys.executable, "-c", CHIP_OPEN], capture_output=True, text=True, timeout=300)
        seconds.append(float(done.stdout.split()[-1]) if done.returncode == 0 and done.stdout.split() else -1.0)
    return seconds


def run(args) -> None:
    from jaxcourse import cli  # first: it drops jsonschema's format checkers before nbformat loads
    import nbformat
    from jaxcourse.course import Course
    from jaxcourse.grading.record import executed_path

    course, report_path = Course.at(args.course), Path(args.report)
    report = json.loads(report_path.read_text()) if report_path.exists() else {"lessons": {}}
    if "chip_opens" not in report:  # once per report: a continued run does not open the chip again for it
        report["chip_opens"] = chip_opens(args.chip_opens)
        report_path.write_text(json.dumps(report, indent=1))
    k, n = map(int, args.shard.split("/"))
    lessons = [lesson for index, lesson in enumerate(course.lessons())
               if index % n == k - 1 and (not args.lessons or lesson in args.lessons)]
    if args.lessons:  # in the order given: the longest first fits a call's time limit best
        lessons.sort(key=args.lessons.index)
    began = time.monotonic()
    for lesson in lessons:
        if lesson in report["lessons"]:
            continue
        if args.stop_after is not None and time.monotonic() - began > args.stop_after:
            left = [name for name in lessons if name not in report["lessons"]]
            print(f"stopped after {args.stop_after:g} s; not yet graded: {' '.join(left)}", flush=True)
            break
        command = ["grade", lesson, "--course-dir", str(course.root), "--platform", args.platform, "--workers", "1",
                   "--no-compilation-cache", "--quiet", "--force", *(["--unsafe-no-sandbox"] if args.unsafe_no_sandbox else [])]
        printed, start = io.StringIO(), time.monotonic()
        with contextlib.redirect_stdout(printed):
            status = cli.main(command)
        seconds = time.monotonic() - start
        csv_path = course.grades / f"{lesson}.csv"
        rows = list(csv.DictReader(csv_path.open())) if csv_path.exists() else []
        students = {}
        for row in rows:
            student = students.setdefault(row["student_id"], {"cells": {}})
            student["cells"][row["grade_id"]] = [row["status"], float(row["points"] or 0), float(row["max_points"]),
                                                 row["detail"][:300]]
        for student, result in students.items():
            path = executed_path(course, lesson, student, lesson)
            meta = nbformat.read(path, as_version=4).metadata.get("jaxcourse", {}) if path.exists() else {}
            result["receipt"] = meta.get("receipt")
            result["seconds"] = meta.get("seconds")
        report["lessons"][lesson] = {"exit_status": status, "seconds": round(seconds, 1), "students": students,
                                     "speed": printed.getvalue().strip().splitlines()[-4:]}
        report_path.write_text(json.dumps(report, indent=1))
        kinds = {tuple((s["receipt"] or {}).get("device_kinds", ["none"])) for s in students.values()}
        points = {s: f"{sum(c[1] for c in r['cells'].values()):g}/{sum(c[2] for c in r['cells'].values()):g}"
                  for s, r in students.items()}
        print(f"{lesson}: exit {status}, {seconds:.1f}s, {kinds}, {points}", flush=True)


def compare(args) -> None:
    expected = json.loads(Path(args.expected).read_text())["lessons"]
    actual = {}
    for path in args.actual:
        actual.update(json.loads(Path(path).read_text())["lessons"])
    differ = 0
    for lesson in sorted(actual):
        for student, result in actual[lesson]["students"].items():
            mine = {cell: value[:2] for cell, value in result["cells"].items()}
            theirs = {cell: value[:2] for cell, value in expected.get(lesson, {}).get("students", {}).get(student, {}).get("cells", {}).items()}
            if mine != theirs:
                differ += 1
                print(f"{lesson} {student}: {theirs} -> {mine}")
    seconds = [r["seconds"] for lesson in actual.values() for r in lesson["students"].values() if r.get("seconds")]
    opens = [s for path in args.actual for s in json.loads(Path(path).read_text()).get("chip_opens", []) if s > 0]
    print(f"{sum(len(lesson['students']) for lesson in actual.values())} submissions in {len(actual)} lessons, "
          f"{differ} scored differently; a run {min(seconds):.1f}-{max(seconds):.1f}s (median {statistics.median(seconds):.1f}s)"
          + (f"; opening the chip {min(opens):.1f}-{max(opens):.1f}s" if opens else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("course")
    p.add_argument("lessons", nargs="*", help="only these (default: all)")
    p.add_argument("--platform", default="tpu", help="the lessons that declare it")
    p.add_argument("--mutant", action="append", default=[], metavar="LESSON/NAME",
                   help="one more student: that mutant of that lesson (repeatable)")
    p.set_defaults(func=prepare)
    r = sub.add_parser("run")
    r.add_argument("course")
    r.add_argument("lessons", nargs="*", help="only these (default: all)")
    r.add_argument("--platform", default="tpu")
    r.add_argument("--report", required=True)
    r.add_argument("--shard", default="1/1", metavar="K/N")
    r.add_argument("--chip-opens", type=int, default=3)
    r.add_argument("--unsafe-no-sandbox", action="store_true")
    r.add_argument("--stop-after", type=float, metavar="SECONDS",
                   help="start no lesson after this many seconds (a rerun with the same report continues)")
    r.set_defaults(func=run)
    c = sub.add_parser("compare")
    c.add_argument("expected")
    c.add_argument("actual", nargs="+")
    c.set_defaults(func=compare)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
