"""A/B of two trees of the grader: `jaxcourse grade` from tree A and from tree B, alternating
(B first in every second round), each on a fresh copy of the same kind of scratch course, so that
a host whose speed drifts skews both alike. What a change of the grader is worth on its own.

A tree is a folder holding a `jaxcourse` package and the requirements-cpu.txt whose pins its
release reads, for example
    git worktree add /tmp/before <commit>
    git archive <commit> jaxcourse requirements-cpu.txt | tar -x -C /tmp/before
and it runs with this environment's packages. Submissions are built as grade_throughput.py
builds them (correct, one-wrong and blank, mixed). With --regrade, each course is graded once
untimed first and the timed run is `grade --force`: the expected values and the compilation
cache are stored, as in every grading of a lesson after its first.
Usage: .venv/bin/python benchmarks/grade_ab.py TREE_A [TREE_B (default: this checkout)]
           [--lesson welcome-02] [-n 20] [--rounds 3] [--workers W] [--unsafe-no-sandbox] [--regrade]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))

from grade_throughput import build  # noqa: E402


def graded_seconds(tree: Path, course_root: Path, lesson: str, options: list[str]) -> float:
    """Wall seconds of `jaxcourse grade` run from `tree`'s package."""
    env = {**os.environ, "JAX_PLATFORMS": "cpu",
           "PYTHONPATH": os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))}
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "jaxcourse.cli", "grade", lesson, "--quiet", *options],
                          cwd=course_root, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - began
    if done.returncode not in (0, 1):  # 1: some submission's grade is not final, as a blank one's may be
        sys.exit(f"grading from {tree} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree_a", type=Path)
    parser.add_argument("tree_b", type=Path, nargs="?", default=REPO)
    parser.add_argument("--lesson", default="welcome-02")
    parser.add_argument("-n", type=int, default=20, help="submissions (default 20)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int)
    parser.add_argument("--unsafe-no-sandbox", action="store_true", help="where bubblewrap cannot start (a TPU host)")
    parser.add_argument("--regrade", action="store_true", help="time a second grading (--force) of each course")
    args = parser.parse_args()
    trees = {"A": args.tree_a.resolve(), "B": args.tree_b.resolve()}
    for name, tree in trees.items():
        if not (tree / "jaxcourse" / "cli.py").is_file():
            sys.exit(f"tree {name} ({tree}) holds no jaxcourse package")
    options = [*(["--workers", str(args.workers)] if args.workers else []),
               *(["--unsafe-no-sandbox"] if args.unsafe_no_sandbox else [])]
    print(f"A: {trees['A']}\nB: {trees['B']}\n{args.lesson}, n={args.n}, {args.rounds} rounds, "
          f"{os.cpu_count()} cores, options: {' '.join(options) or 'none'}"
          f"{', a second grading timed' if args.regrade else ''}", flush=True)
    seconds: dict[str, list[float]] = {"A": [], "B": []}
    with tempfile.TemporaryDirectory(prefix="jaxcourse-ab-") as scratch:
        for round_ in range(args.rounds):
            for name in ("A", "B") if round_ % 2 == 0 else ("B", "A"):
                course = build(Path(scratch) / f"{name}-{round_}", args.lesson, args.n)
                if args.regrade:
                    graded_seconds(trees[name], course.root, args.lesson, options)
                timed = [*options, "--force"] if args.regrade else options
                seconds[name].append(graded_seconds(trees[name], course.root, args.lesson, timed))
                print(f"round {round_ + 1} {name}: {seconds[name][-1]:.1f} s", flush=True)
    a, b = (statistics.median(seconds[name]) for name in ("A", "B"))
    pairs = [x / y for x, y in zip(seconds["A"], seconds["B"])]
    print(f"median A {a:.1f} s, B {b:.1f} s: B takes {b / a:.2f}x A's time; "
          f"A/B of each round: {', '.join(f'{p:.2f}' for p in pairs)}")


if __name__ == "__main__":
    main()
