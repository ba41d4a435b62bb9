"""Where a grading run's wall time goes: one `jaxcourse grade` of n fabricated submissions, watched
from outside, second by second.

It changes nothing in the grader. Every 50 ms it looks at the grader's sandbox folders (each
sandbox's folder appears when the sandbox starts to boot, its `in/submission.ipynb` when a
notebook is handed to it, and the folder goes when the run has ended and the sandbox is
discarded) and at the machine's busy CPU time (/proc/stat: run it on a quiet machine). It
prints, for each second: the sandboxes booting or waiting, the notebooks running, and the cores
busy; then the phases: until the
first notebook runs, until the first submission runs (the runs before it are the instructor's:
the cache fill, and the solution where it runs first), the submissions' span and the tail. With
--regrade the course is graded once unwatched first, and the watched run is `grade --force`, as
every grading of a lesson after its first (the expected values and the cache stored).
Usage: .venv/bin/python benchmarks/grade_timeline.py [--lesson welcome-02] [-n 36] [--workers W]
                                                     [--unsafe-no-sandbox] [--regrade] [--json PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from grade_throughput import REPO, build  # noqa: E402 - the same course and submissions

from jaxcourse.run.platforms import default_workers  # noqa: E402
from jaxcourse.run.workdirs import runs_folder  # noqa: E402

def machine_busy() -> float:
    """CPU seconds the whole machine has been busy (a sandboxed kernel killed with its runner is
    reaped by no process of ours, so per-process times would lose it): run it on a quiet machine."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, open("/proc/stat").readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def watch(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[dict, list]:
    """Run `cmd`; each sandbox's moments (seen, handed its notebook, gone) and the (time, busy CPU) samples."""
    runs, sandboxes, samples = runs_folder(), {}, []
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    start = time.monotonic()
    while True:
        now = time.monotonic() - start
        present = {p.name for p in runs.glob("run-*")}
        for name in present:
            moments = sandboxes.setdefault(name, {"seen": now})
            if "handed" not in moments and (runs / name / "in" / "submission.ipynb").exists():
                moments["handed"] = now
        for name, moments in sandboxes.items():
            if name not in present and "gone" not in moments:
                moments["gone"] = now
        if proc.poll() is not None:
            break
        samples.append((now, machine_busy()))
        time.sleep(0.05)
    stderr = proc.stderr.read()
    if proc.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{stderr[-2000:]}")
    return sandboxes, samples + [(time.monotonic() - start, machine_busy())]


def per_second(sandboxes: dict, samples: list) -> list[dict]:
    end = samples[-1][0]
    rows = []
    for second in range(int(end) + 1):
        at = second + 0.5
        booting = sum(1 for m in sandboxes.values() if m["seen"] <= at < m.get("handed", m.get("gone", end)))
        running = sum(1 for m in sandboxes.values() if "handed" in m and m["handed"] <= at < m.get("gone", end))
        inside = [s for s in samples if second <= s[0] < second + 1]
        cores = (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0]) if len(inside) > 1 else 0.0
        rows.append({"second": second, "booting_or_waiting": booting, "running": running, "cores": round(cores, 2)})
    return rows


def phases(sandboxes: dict, n: int, end: float) -> dict:
    handed = sorted(m["handed"] for m in sandboxes.values() if "handed" in m)
    instructor = len(handed) - n  # the earliest runs: the fill, and the solution where it came first
    ran = [m["gone"] - m["handed"] for m in sandboxes.values() if "gone" in m and "handed" in m]
    return {"first_sandbox": min(m["seen"] for m in sandboxes.values()), "first_notebook": handed[0],
            "first_submission": handed[instructor], "last_handed": handed[-1], "end": end,
            "instructor_runs": instructor, "notebooks": len(handed),
            "ran_median": sorted(ran)[len(ran) // 2] if ran else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lesson", default="welcome-02")
    parser.add_argument("-n", type=int, default=36)
    parser.add_argument("--workers", type=int, default=default_workers("cpu"))
    parser.add_argument("--unsafe-no-sandbox", action="store_true", help="grade without bubblewrap (a TPU host)")
    parser.add_argument("--regrade", action="store_true", help="watch a second grading (--force) of the course")
    parser.add_argument("--json", type=Path, metavar="PATH", help="keep the sandboxes' moments and the samples here")
    args = parser.parse_args()
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}", "JAX_PLATFORMS": "cpu"}
    cmd = [sys.executable, "-m", "jaxcourse.cli", "grade", args.lesson, "--quiet", "--workers", str(args.workers),
           *(["--unsafe-no-sandbox"] if args.unsafe_no_sandbox else [])]
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    with tempfile.TemporaryDirectory(prefix="jaxcourse-timeline-") as tmp:
        course = build(Path(tmp) / "course", args.lesson, args.n)
        if args.regrade:
            first = subprocess.run(cmd, cwd=course.root, env=env, capture_output=True, text=True)
            if first.returncode not in (0, 1):  # 1: some grade is not final, as a blank submission's may be
                sys.exit(f"the first grading failed ({first.returncode}):\n{first.stderr[-2000:]}")
        sandboxes, samples = watch([*cmd, *(["--force"] if args.regrade else [])], course.root, env)
    rows, summary = per_second(sandboxes, samples), phases(sandboxes, args.n, samples[-1][0])
    cpu = samples[-1][1] - samples[0][1]  # 0 where /proc/stat stands still (gVisor's does)
    print(f"{args.lesson}, n={args.n}, {args.workers} workers, {os.cpu_count()} cores, "
          f"{'unsandboxed' if args.unsafe_no_sandbox else 'sandboxed'}{', a second grading' if args.regrade else ''}: "
          f"{summary['end']:.1f} s, " + (
              f"{cpu:.0f} CPU-s of the machine ({cpu / args.n:.2f} a submission)" if cpu else "/proc/stat counts no CPU here"))
    print(" second | booting or waiting | running | cores busy")
    for row in rows:
        cores = f"{row['cores']:5.2f}" if cpu else "  n/a"
        print(f" {row['second']:6d} | {row['booting_or_waiting']:18d} | {row['running']:7d} | {cores}")
    print(f"first sandbox {summary['first_sandbox']:.1f} s, first notebook handed {summary['first_notebook']:.1f} s, "
          f"first submission {summary['first_submission']:.1f} s (after {summary['instructor_runs']} instructor runs), "
          f"last handed {summary['last_handed']:.1f} s, end {summary['end']:.1f} s; a notebook ran "
          f"{summary['ran_median']:.1f} s (median)")
    if args.json:
        args.json.write_text(json.dumps({"lesson": args.lesson, "n": args.n, "workers": args.workers,
                                         "regrade": args.regrade, "cores": os.cpu_count(),
                                         "sandboxed": not args.unsafe_no_sandbox,
                                         "summary": summary, "seconds": rows, "sandboxes": sandboxes}, indent=1))


if __name__ == "__main__":
    main()
