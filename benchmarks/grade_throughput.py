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
With --scaling W1,W2,... it measures instead how grading scales with workers, with plain papermill
as the baseline in the same run: for each count W in turn, `jaxcourse grade --workers W` on a fresh
course of n submissions (default 48, the same for every W; the instructor's solution run and the
cache fill included), then the same n notebooks each run by bare `papermill.execute_notebook` in a
Python process of its own, W at a time (ipc kernels, every cell run, nothing graded). It prints
submissions a minute for both and each one's speed-up over its own W=1 figure, and where the
time went: a notebook's median seconds in its sandbox (papermill: in its process), the share
of the workers' time that notebooks ran (low: the workers waited on the set-up or the grader),
and the CPU-seconds a notebook cost (of the processes reaped: all of them without the sandbox).
--json PATH keeps the host's facts and the figures, rewritten after every W; run again with the
same lesson, n and sandbox setting, it skips the counts already there (so a run cut off by a time
limit is finished by running it again), and --stop-after SECONDS starts no count that would end
past SECONDS.
--unsafe-no-sandbox is passed to `jaxcourse grade` where bubblewrap cannot start (a TPU host).
Against stock, CPU time is counted in a cpuacct cgroup per command where the host has cgroup v1
(sandboxes included, other load excluded); elsewhere from /proc/stat, so run it quiet.
Usage: .venv/bin/python benchmarks/grade_throughput.py [--lesson L] [-n 20] [--rounds 3]
       .venv/bin/python benchmarks/grade_throughput.py --scaling 1,2,4,8,12 [-n 48] [--lesson L] [--json PATH]
                                                       [--unsafe-no-sandbox] [--stop-after SECONDS]
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import importlib.metadata
import json
import os
import platform
import resource
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
from jaxcourse.grading.trusted import code_digest  # noqa: E402
from jaxcourse.authoring.release import release  # noqa: E402
from jaxcourse.run.platforms import default_workers  # noqa: E402


IN_CGROUP: list[bool] = []  # per command: was its CPU time counted in a cgroup of its own?
CPUACCT = Path("/sys/fs/cgroup/cpuacct")


def busy_seconds() -> float:
    """CPU time the whole machine has spent busy. Sandboxed kernels are not reaped by us, so
    rusage would miss them; /proc/stat counts everything (and any other load, so run it quiet)."""
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, open("/proc/stat").readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def reaped_cpu_seconds() -> float:
    """CPU time of this process's children that have ended, and of theirs that they waited for.
    Where every process of a run exits or is reaped by its parent (unsandboxed runs), that is all
    of it; a sandbox killed with its runner leaves its kernel to be reaped elsewhere."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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
    parser.add_argument("-n", type=int, help="submissions (default 20; with --scaling, 48)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds against stock nbgrader (default 3)")
    parser.add_argument("--scaling", type=worker_counts, metavar="W1,W2,...",
                        help="time jaxcourse and plain papermill with each of these worker counts instead")
    parser.add_argument("--json", type=Path, metavar="PATH", help="with --scaling: keep the figures here (and resume)")
    parser.add_argument("--stop-after", type=float, metavar="SECONDS",
                        help="with --scaling: start no count that would end after SECONDS")
    parser.add_argument("--unsafe-no-sandbox", action="store_true",
                        help="with --scaling: grade without bubblewrap (a host without user namespaces)")
    args = parser.parse_args()
    if not args.scaling and (args.json or args.stop_after is not None or args.unsafe_no_sandbox):
        parser.error("--json, --stop-after and --unsafe-no-sandbox go with --scaling")
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "JAX_PLATFORMS": "cpu"}
    # `python -m jaxcourse.cli`: a host given the package on PYTHONPATH (a TPU host) has no `jaxcourse` script.
    ours = [sys.executable, "-m", "jaxcourse.cli", "grade", args.lesson, "--quiet"]
    if args.scaling:
        scaling(args.lesson, args.n or 48, args.scaling, ours, env, args.json, args.stop_after, args.unsafe_no_sandbox)
    else:
        against_stock(args.lesson, args.n or 20, args.rounds, ours, env)


def worker_counts(text: str) -> list[int]:
    counts = [int(w) for w in text.split(",")]
    if not counts or min(counts) < 1 or len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError("distinct positive worker counts, comma-separated")
    return counts


# One submission under plain papermill: its own process and kernel, as a course without jaxcourse
# would run it. The kernel is the grader's own kernel/python_kernel.py (ipykernel, its IOPub thread
# without the fork pipe), over unix sockets (ipc) in a private folder: a TPU host refuses IP sockets,
# and stock ipykernel's fork pipe binds one, so the stock kernel dies there before it answers.
# allow_errors (an nbclient option papermill passes on) runs every cell, as grading does; without
# it papermill stops at the first failing cell, and the wrong and blank submissions would cost it
# less than they cost us. papermill still raises at the end for them.
PAPERMILL_DRIVER = """
import os, sys, tempfile
import papermill
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync

source, target, kernel = sys.argv[1:4]


class Specs(KernelSpecManager):
    def get_kernel_spec(self, name):
        return KernelSpec(argv=[sys.executable, kernel, "-f", "{connection_file}"], display_name="Python 3",
                          language="python", resource_dir=os.path.dirname(kernel))


with tempfile.TemporaryDirectory(prefix="pm-") as private:  # made 0700
    km = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=Specs(), transport="ipc",
                            connection_file=os.path.join(private, "kernel.json"))
    run_sync(km.start_kernel)(cwd=os.path.dirname(os.path.abspath(source)))
    try:
        papermill.execute_notebook(source, target, km=km, kernel_name="python3", progress_bar=False,
                                   log_output=False, allow_errors=True)
    except papermill.PapermillExecutionError:
        pass  # a wrong or blank submission: it ran to the end all the same
    finally:
        run_sync(km.shutdown_kernel)(now=True)
"""
KERNEL = REPO / "jaxcourse" / "kernel" / "python_kernel.py"


def papermill_seconds(notebooks: list[Path], out_dir: Path, workers: int, env: dict[str, str]
                      ) -> tuple[float, list[float]]:
    """Wall time of running `notebooks` with plain papermill, `workers` processes at a time, and
    each notebook's own seconds (its process, start to end)."""
    out_dir.mkdir(parents=True)

    def run(source: Path) -> float:
        target = out_dir / f"{source.parent.parent.name}.ipynb"  # submitted/<student>/<lesson>/<lesson>.ipynb
        began = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", PAPERMILL_DRIVER, str(source), str(target), str(KERNEL)],
                              cwd=out_dir, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"papermill on {source} failed ({done.returncode}):\n{done.stderr[-2000:]}")
        return time.perf_counter() - began

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        each = list(pool.map(run, notebooks))  # list(): re-raises a worker's SystemExit here
    return time.perf_counter() - start, each


def run_seconds(course: Course, lesson: str) -> list[float]:
    """How long each graded notebook ran in its sandbox, from "run" to its end (the grader's
    executed copies keep it): what a worker spends outside it is the grader's own."""
    return [json.loads(path.read_text())["metadata"]["jaxcourse"]["seconds"]
            for path in (course.state / "executed" / lesson).glob("*/*.ipynb")]


def busy(each: list[float], workers: int, wall: float) -> float:
    """The share of the workers' time that notebooks ran."""
    return sum(each) / (workers * wall)


def host_facts(lesson: str, n: int, sandboxed: bool) -> dict:
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO, capture_output=True, text=True,
                                check=True).stdout.strip()
        changed = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO,
                                      capture_output=True, text=True, check=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        commit, changed = None, None  # a copy of the tree without git (a carried bundle)
    return {"cpu_count": os.cpu_count(), "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
            "lesson": lesson, "n": n, "sandboxed": sandboxed, "commit": commit, "uncommitted_changes": changed,
            # The grader's files themselves: a copied tree's .git can be stale (the device's was).
            "code_digest": code_digest().hex()[:16],
            "python": platform.python_version(), "jax": importlib.metadata.version("jax")}


def write_json(path: Path, doc: dict) -> None:
    """Atomically: a run killed mid-write leaves the previous figures, not half a file."""
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(temp, path)


def scaling(lesson: str, n: int, counts: list[int], ours: list[str], env: dict[str, str],
            json_path: Path | None, stop_after: float | None, unsafe_no_sandbox: bool) -> None:
    """Submissions a minute of `jaxcourse grade` and of plain papermill at each worker count."""
    began = time.perf_counter()
    doc = {"host": host_facts(lesson, n, not unsafe_no_sandbox), "results": []}
    if json_path and json_path.exists():
        old = json.loads(json_path.read_text())
        same = ("lesson", "n", "sandboxed")
        if any(old["host"][k] != doc["host"][k] for k in same):
            held = ", ".join(f"{k} {old['host'][k]}" for k in same)
            sys.exit(f"{json_path} holds another run ({held}); pass another --json PATH")
        doc["results"] = old["results"]  # its host facts stay those of the run that began it
        doc["host"] = old["host"]
    if unsafe_no_sandbox:
        ours = [*ours, "--unsafe-no-sandbox"]
    print(f"lesson {lesson}, {n} submissions, {os.cpu_count()} cores, workers {','.join(map(str, counts))}, "
          f"{'unsandboxed' if unsafe_no_sandbox else 'sandboxed'}; papermill's kernel: {KERNEL}", flush=True)
    done = {r["workers"] for r in doc["results"]}
    if done & set(counts):
        print(f"already in {json_path}: W={','.join(str(w) for w in counts if w in done)}")
    todo = [w for w in counts if w not in done]
    last_duration = None  # seconds the previous count took here (course built, ours, papermill)
    with tempfile.TemporaryDirectory(prefix="jaxcourse-bench-") as scratch:
        for i, workers in enumerate(todo):
            # A count with more workers should take no longer than the one before it, so the
            # last one's duration is a safe guess for the next.
            elapsed = time.perf_counter() - began
            if stop_after is not None and last_duration is not None and elapsed + last_duration > stop_after:
                print(f"stopping after {elapsed:.0f} s: W={','.join(map(str, todo[i:]))} would likely end past "
                      f"{stop_after:.0f} s (the last count took {last_duration:.0f} s); run again to finish")
                break
            started = time.perf_counter()
            course = build(Path(scratch) / f"w{workers}", lesson, n)
            notebooks = sorted(course.submitted.glob(f"*/{lesson}/{lesson}.ipynb"))
            before = reaped_cpu_seconds()
            ours_s, _ = timed([*ours, "--workers", str(workers)], course.root, env)
            after_ours = reaped_cpu_seconds()
            ours_each = run_seconds(course, lesson)
            pm_s, pm_each = papermill_seconds(notebooks, Path(scratch) / f"papermill-{workers}", workers, env)
            ours_cpu, pm_cpu = after_ours - before, reaped_cpu_seconds() - after_ours
            shutil.rmtree(Path(scratch) / f"w{workers}")
            shutil.rmtree(Path(scratch) / f"papermill-{workers}")
            last_duration = time.perf_counter() - started
            doc["results"].append({"workers": workers, "ours_seconds": round(ours_s, 2),
                                   "ours_per_minute": round(60 * n / ours_s, 2), "papermill_seconds": round(pm_s, 2),
                                   "papermill_per_minute": round(60 * n / pm_s, 2),
                                   # Where the time goes: a notebook's median seconds, and the share of
                                   # the workers' time that notebooks ran (the rest: set-up, the grader).
                                   "ours_run_median": round(statistics.median(ours_each), 2),
                                   "ours_busy": round(busy(ours_each, workers, ours_s), 3),
                                   "papermill_run_median": round(statistics.median(pm_each), 2),
                                   "papermill_busy": round(busy(pm_each, workers, pm_s), 3),
                                   # CPU-seconds a notebook, of the processes that were reaped (all of
                                   # them unsandboxed); ours include the grader, the fill and the solution.
                                   "ours_cpu_each": round(ours_cpu / n, 2), "papermill_cpu_each": round(pm_cpu / n, 2),
                                   # Cores kept busy on average: at W=1 they bound the speed-up any
                                   # count can reach on this host (cores / these).
                                   "ours_cores": round(ours_cpu / ours_s, 2), "papermill_cores": round(pm_cpu / pm_s, 2)})
            doc["results"].sort(key=lambda r: r["workers"])
            if json_path:
                write_json(json_path, doc)
            base = doc["results"][0]  # W=1 where measured
            row = next(r for r in doc["results"] if r["workers"] == workers)
            print(f"W={workers:2d}: jaxcourse {row['ours_per_minute']:.1f}/min "
                  f"({row['ours_per_minute'] / base['ours_per_minute']:.2f}x), papermill "
                  f"{row['papermill_per_minute']:.1f}/min ({row['papermill_per_minute'] / base['papermill_per_minute']:.2f}x)"
                  f"   [{row['ours_seconds']:.1f} s + {row['papermill_seconds']:.1f} s, {last_duration:.0f} s with the build]"
                  f"\n      a notebook ran {row['ours_run_median']:.1f} s (median), workers busy {row['ours_busy']:.0%}; "
                  f"papermill {row['papermill_run_median']:.1f} s, busy {row['papermill_busy']:.0%}"
                  f"\n      CPU a notebook (reaped processes): jaxcourse {row['ours_cpu_each']:.2f} s, papermill "
                  f"{row['papermill_cpu_each']:.2f} s; cores busy: jaxcourse {row['ours_cores']:.2f}, papermill "
                  f"{row['papermill_cores']:.2f}", flush=True)
    results = [r for r in doc["results"] if r["workers"] in counts]
    if not results:
        return
    base = doc["results"][0]
    print(f"\nspeed-ups are over W={base['workers']}; n={n} each; jaxcourse includes the instructor's solution run "
          "and the cache fill, papermill runs the notebooks only (no grading)")
    if unsafe_no_sandbox and base["workers"] == 1 and "ours_cores" in base:  # every process reaped: all the CPU
        cores = os.cpu_count()
        print(f"one worker keeps {base['ours_cores']:.2f} cores busy (papermill {base['papermill_cores']:.2f}): "
              f"unless a notebook costs less CPU with more workers, no count can beat {cores / base['ours_cores']:.1f}x "
              f"on {cores} cores (papermill {cores / base['papermill_cores']:.1f}x)")
    print(" workers | jaxcourse s  /min  speed-up | papermill s  /min  speed-up | jaxcourse/papermill")
    for r in results:
        print(f" {r['workers']:7d} | {r['ours_seconds']:11.1f} {r['ours_per_minute']:5.1f} "
              f"{r['ours_per_minute'] / base['ours_per_minute']:8.2f}x | {r['papermill_seconds']:11.1f} "
              f"{r['papermill_per_minute']:5.1f} {r['papermill_per_minute'] / base['papermill_per_minute']:8.2f}x | "
              f"{r['ours_per_minute'] / r['papermill_per_minute']:.2f}x")


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
