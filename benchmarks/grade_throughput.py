"""Grading throughput: stock `nbgrader autograde` against `jaxcourse grade`, and a bare script.

Builds a scratch course with 20 submissions of one lesson (correct, one-wrong and blank, mixed),
then, in the same run on the same machine, times:
  1. stock `nbgrader autograde LESSON` (serial, unsandboxed, its own Execute preprocessor);
  2. `jaxcourse grade LESSON` with the default workers (sandboxed, verdicts outside the kernel),
     warm single-use kernels and the read-only compilation cache;
  3. the same with `--cold --no-compilation-cache`, to show what those two are worth;
  3b. warm kernels with `--no-compilation-cache`, to show what the cache of the lesson's visible
      code is worth (the instructor's solution and hidden tests are no longer in it);
  4. the instructor's solution as a bare Python script (no kernel, no grading).
and prints the ratios. CPU time is counted in a cpuacct cgroup per command where the host has
cgroup v1 (sandboxes included, other load excluded); elsewhere from /proc/stat, so run it quiet. Usage: .venv/bin/python benchmarks/grade_throughput.py [--lesson L] [-n 20]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import nbformat  # noqa: E402

from jaxcourse import fabricate  # noqa: E402
from jaxcourse.artefacts import solution_notebook, solution_script  # noqa: E402
from jaxcourse.course import Course  # noqa: E402
from jaxcourse.release import release  # noqa: E402
from jaxcourse.workers import default_workers  # noqa: E402


CPU_SECONDS: dict[str, float] = {}
IN_CGROUP: list[bool] = []  # per command: was its CPU time counted in a cgroup of its own?
CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def busy_seconds() -> float:
    """CPU time the whole machine has spent busy. Sandboxed kernels are not reaped by us, so
    rusage would miss them; /proc/stat counts everything (and any other load, so run it quiet)."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, open("/proc/stat").readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_cpu_group() -> Path | None:
    """A cpuacct cgroup for one command: it and every sandbox it starts stay in it."""
    group = CPUACCT / f"jaxcourse-bench-{uuid.uuid4().hex[:8]}"
    try:
        group.mkdir()
        return group
    except OSError:
        return None


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    """Wall seconds of `cmd`; its CPU seconds go to CPU_SECONDS (the machine's, without a cgroup)."""
    group, busy = own_cpu_group(), busy_seconds()
    join = (lambda: (group / "cgroup.procs").write_text(str(os.getpid()))) if group else None
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, preexec_fn=join)
    seconds = time.perf_counter() - start
    IN_CGROUP.append(group is not None)
    if group:
        CPU_SECONDS[" ".join(cmd)] = int((group / "cpuacct.usage").read_text()) / 1e9
        group.rmdir()
    else:
        CPU_SECONDS[" ".join(cmd)] = busy_seconds() - busy
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds


def build(root: Path, lesson: str, count: int) -> Course:
    course = Course.at(root)
    shutil.copytree(REPO / "source" / lesson, course.source / lesson)
    release(course, [lesson])
    released = nbformat.read(course.release / lesson / f"{lesson}.ipynb", as_version=4)
    mutants = fabricate.mutants(course, lesson)
    for i in range(count):
        kind = i % 3
        if kind == 0:
            nb = fabricate.solved(course, lesson, released)
        elif kind == 1 and mutants:
            nb = fabricate.solved(course, lesson, released, mutants[i % len(mutants)])
        else:
            nb = released
        fabricate.submit(course, f"student-{i:02d}", lesson, nb)
    return course


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lesson", default="welcome-02")
    parser.add_argument("-n", type=int, default=20, help="submissions")
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "JAX_PLATFORMS": "cpu"}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-bench-") as scratch:
        stock = build(Path(scratch) / "stock", args.lesson, args.n)
        ours = build(Path(scratch) / "ours", args.lesson, args.n)
        cold = build(Path(scratch) / "cold", args.lesson, args.n)
        uncached = build(Path(scratch) / "uncached", args.lesson, args.n)
        stock_s = timed([str(bin_dir / "nbgrader"), "autograde", args.lesson, "--force"], stock.root, env)
        ours_s = timed([str(bin_dir / "jaxcourse"), "grade", args.lesson, "--quiet"], ours.root, env)
        cold_s = timed([str(bin_dir / "jaxcourse"), "grade", args.lesson, "--quiet", "--cold",
                        "--no-compilation-cache"], cold.root, env)
        uncached_s = timed([str(bin_dir / "jaxcourse"), "grade", args.lesson, "--quiet", "--no-compilation-cache"],
                           uncached.root, env)
        script = Path(scratch) / f"{args.lesson}.py"
        script.write_text(solution_script(solution_notebook(stock, args.lesson), args.lesson))
        bare_s = min(timed([sys.executable, str(script)], Path(scratch), {**env, "MPLBACKEND": "Agg"})
                     for _ in range(3))
    stock_cpu, ours_cpu, cold_cpu = list(CPU_SECONDS.values())[:3]
    bare_cpu = min(list(CPU_SECONDS.values())[4:])
    workers = default_workers("cpu")
    per_stock, per_ours = stock_s / args.n, ours_s / args.n
    print(f"lesson {args.lesson}, {args.n} submissions, {os.cpu_count()} cores, {workers} worker(s)")
    print(f"stock nbgrader autograde (serial):  {stock_s:7.1f} s  ({per_stock:.2f} s per submission)")
    print(f"jaxcourse grade (default workers):  {ours_s:7.1f} s  ({per_ours:.2f} s per submission, "
          "including the one solution run)")
    print(f"  ... --cold --no-compilation-cache:  {cold_s:7.1f} s  ({cold_s / args.n:.2f} s per submission); "
          f"warm kernels + cache are {cold_s / ours_s:.2f}x faster")
    print(f"  ... warm, --no-compilation-cache:  {uncached_s:7.1f} s; the cache of visible code is worth "
          f"{uncached_s / ours_s:.2f}x")
    print(f"bare script of the solution:        {bare_s:7.2f} s  ({bare_cpu:.2f} CPU seconds)")
    print(f"CPU seconds per submission:         stock {stock_cpu / args.n:.2f}, jaxcourse {ours_cpu / args.n:.2f}, "
          f"cold {cold_cpu / args.n:.2f} (counted {'per command in a cgroup' if all(IN_CGROUP) else 'machine-wide'}); "
          f"with {os.cpu_count()} cores the speed-up can be at most {os.cpu_count() * stock_s / ours_cpu:.2f}x")
    print(f"CPU per submission / stock's:       {ours_cpu / stock_cpu:5.2f}x  (target <= 1.0x)")
    print(f"speed-up over stock nbgrader:       {stock_s / ours_s:5.2f}x  (target >= 2.5x)")
    print(f"per-submission cost / bare script:  {per_ours / bare_s:5.2f}x  (target <= 1.25x)")


if __name__ == "__main__":
    main()
