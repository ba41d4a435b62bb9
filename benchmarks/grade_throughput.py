"""Grading throughput: stock `nbgrader autograde` against `jaxcourse grade`, and a bare script.

Builds scratch courses with 20 submissions of one lesson (correct, one-wrong and blank, mixed),
then, on the same machine, times:
  1. stock `nbgrader autograde LESSON` (serial, unsandboxed, its own Execute preprocessor);
  2. `jaxcourse grade LESSON` with the default workers (sandboxed, verdicts outside the kernel),
     warm single-use kernels and the read-only compilation cache, from a fresh course (the
     instructor's solution run and the cache fill included);
     1 and 2 alternate for --rounds rounds, each on fresh copies, and the ratios are the
     medians of the rounds', so that a machine whose speed drifts (shared hosts do) skews one
     round, not the result;
  3. the same with `--cold --no-compilation-cache`, to show what those two are worth;
  3b. warm kernels with `--no-compilation-cache`, to show what the cache of the lesson's visible
      code is worth (the instructor's solution and hidden tests are no longer in it);
  4. the instructor's solution as a bare Python script (no kernel, no grading), best of three.
With --scaling W it measures instead how grading scales with the host's cores: `jaxcourse grade`
with 1 worker and with W workers, alternating for --rounds rounds on fresh copies (a 16-core
host: --scaling 16 --rounds 1; the submissions default to 8 per worker, so that the tail where
workers run out of notebooks stays short).
CPU time is counted in a cpuacct cgroup per command where the host has cgroup v1 (sandboxes
included, other load excluded); elsewhere from /proc/stat, so run it quiet.
Usage: .venv/bin/python benchmarks/grade_throughput.py [--lesson L] [-n 20] [--rounds 3] [--scaling W]
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import nbformat  # noqa: E402

from jaxcourse.authoring import fabricate  # noqa: E402
from jaxcourse.authoring.artefacts import solution_notebook, solution_script  # noqa: E402
from jaxcourse.course import Course  # noqa: E402
from jaxcourse.authoring.release import release  # noqa: E402
from jaxcourse.run.platforms import default_workers  # noqa: E402


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


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of `cmd` (CPU of the whole machine where no cgroup can be made)."""
    group, busy = own_cpu_group(), busy_seconds()
    join = (lambda: (group / "cgroup.procs").write_text(str(os.getpid()))) if group else None
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, preexec_fn=join)
    seconds = time.perf_counter() - start
    IN_CGROUP.append(group is not None)
    if group:
        cpu = int((group / "cpuacct.usage").read_text()) / 1e9
        group.rmdir()
    else:
        cpu = busy_seconds() - busy
    if done.returncode not in (0, 1):
        sys.exit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds, cpu


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
    parser.add_argument("-n", type=int, help="submissions (default 20; with --scaling, 8 per worker)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    parser.add_argument("--scaling", type=int, metavar="W", help="time 1 worker against W workers instead")
    args = parser.parse_args()
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "JAX_PLATFORMS": "cpu"}
    ours = [str(bin_dir / "jaxcourse"), "grade", args.lesson, "--quiet"]
    if args.scaling:
        scaling(args.lesson, args.n or 8 * args.scaling, args.scaling, args.rounds, ours, env)
    else:
        against_stock(args.lesson, args.n or 20, args.rounds, ours, env)


def scaling(lesson: str, n: int, workers: int, rounds: int, ours: list[str], env: dict[str, str]) -> None:
    """Wall time of grading with 1 worker against `workers` workers, from fresh courses."""
    print(f"lesson {lesson}, {n} submissions, {os.cpu_count()} cores, 1 against {workers} workers, "
          f"{rounds} round(s)")
    speedups = []
    with tempfile.TemporaryDirectory(prefix="jaxcourse-bench-") as scratch:
        for r in range(rounds):
            one_s, one_cpu = timed([*ours, "--workers", "1"], build(Path(scratch) / f"one-{r}", lesson, n).root, env)
            many_s, many_cpu = timed([*ours, "--workers", str(workers)],
                                     build(Path(scratch) / f"many-{r}", lesson, n).root, env)
            speedups.append(one_s / many_s)
            print(f"round {r + 1}: 1 worker {one_s:6.1f} s ({one_cpu / n:.2f} CPU-s a submission), {workers} workers "
                  f"{many_s:6.1f} s ({many_cpu / n:.2f} CPU-s): {one_s / many_s:.2f}x", flush=True)
    speedup = statistics.median(speedups)
    print(f"speed-up of {workers} workers over 1:   {speedup:5.2f}x  (median; {speedup / workers:.0%} of linear; "
          "the instructor's solution run and the cache fill are in both)")


def against_stock(lesson: str, n: int, rounds: int, ours: list[str], env: dict[str, str]) -> None:
    # The course's config turns `nbgrader autograde` off (jaxcourse.grading.seams); stock nbgrader is what is measured.
    nbgrader = [str(Path(sys.executable).parent / "nbgrader"), "autograde", lesson, "--force",
                "--Autograde.exporter_class=nbconvert.exporters.NotebookExporter"]
    cores, workers = os.cpu_count(), default_workers("cpu")
    print(f"lesson {lesson}, {n} submissions, {cores} cores, {workers} worker(s), {rounds} round(s)")
    results = []
    with tempfile.TemporaryDirectory(prefix="jaxcourse-bench-") as scratch:
        for r in range(rounds):
            stock_s, stock_cpu = timed(nbgrader, build(Path(scratch) / f"stock-{r}", lesson, n).root, env)
            ours_s, ours_cpu = timed(ours, build(Path(scratch) / f"ours-{r}", lesson, n).root, env)
            results.append((stock_s, stock_cpu, ours_s, ours_cpu))
            print(f"round {r + 1}: stock {stock_s:5.1f} s ({stock_cpu / n:.2f} CPU-s a submission), jaxcourse "
                  f"{ours_s:5.1f} s ({ours_cpu / n:.2f} CPU-s): {stock_s / ours_s:.2f}x throughput, "
                  f"{ours_cpu / stock_cpu:.2f}x CPU, bound {cores * stock_s / ours_cpu:.2f}x", flush=True)
        cold_s, cold_cpu = timed([*ours, "--cold", "--no-compilation-cache"],
                                 build(Path(scratch) / "cold", lesson, n).root, env)
        uncached_s, _ = timed([*ours, "--no-compilation-cache"], build(Path(scratch) / "uncached", lesson, n).root, env)
        stock = Course.at(Path(scratch) / "stock-0")
        script = Path(scratch) / f"{lesson}.py"
        script.write_text(solution_script(solution_notebook(stock, lesson), lesson))
        bare_s, bare_cpu = min(timed([sys.executable, str(script)], Path(scratch), {**env, "MPLBACKEND": "Agg"})
                               for _ in range(3))

    def median(ratio) -> float:
        return statistics.median(ratio(*row) for row in results)

    stock_s, stock_cpu, ours_s, ours_cpu = (statistics.median(row[i] for row in results) for i in range(4))
    print(f"stock nbgrader autograde (serial):  {stock_s:7.1f} s  ({stock_s / n:.2f} s per submission; medians of the rounds)")
    print(f"jaxcourse grade (default workers):  {ours_s:7.1f} s  ({ours_s / n:.2f} s per submission, "
          "including the one solution run)")
    print(f"  ... --cold --no-compilation-cache:  {cold_s:7.1f} s  ({cold_s / n:.2f} s per submission); "
          f"warm kernels + cache are {cold_s / ours_s:.2f}x faster")
    print(f"  ... warm, --no-compilation-cache:  {uncached_s:7.1f} s; the cache of visible code is worth "
          f"{uncached_s / ours_s:.2f}x")
    print(f"bare script of the solution:        {bare_s:7.2f} s  ({bare_cpu:.2f} CPU seconds)")
    print(f"CPU seconds per submission:         stock {stock_cpu / n:.2f}, jaxcourse {ours_cpu / n:.2f}, "
          f"cold {cold_cpu / n:.2f} (counted {'per command in a cgroup' if all(IN_CGROUP) else 'machine-wide'}); "
          f"with {cores} cores the speed-up can be at most {median(lambda s, _, __, c: cores * s / c):.2f}x")
    print(f"CPU per submission / stock's:       {median(lambda _, sc, __, oc: oc / sc):5.2f}x  (target <= 1.0x)")
    print(f"speed-up over stock nbgrader:       {median(lambda ss, _, os_, __: ss / os_):5.2f}x  (target >= 2.5x)")
    print(f"per-submission cost / bare script:  {ours_s / n / bare_s:5.2f}x  (target <= 1.25x)")


if __name__ == "__main__":
    main()
