"""check-source --in-process: fixture lessons run kernel-free in one process and judged by the
grader's own code, with nbgrader, papermill and nbclient unimportable (as on the TPU host)."""
import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from jaxcourse.cli import main
from jaxcourse.course import Course
from jaxcourse.grading.expected import expected_path
from jaxcourse.inprocess import compare_reports, select

from conftest import FIXTURES, REPO, tiny_template

# `python -m jaxcourse.inprocess` on a host that has no nbgrader.
WITHOUT_NBGRADER = ("import sys\n"
                    "for name in ('nbgrader', 'papermill', 'nbclient', 'nbconvert'):\n"
                    "    sys.modules[name] = None\n"
                    "from jaxcourse.inprocess import main\n"
                    "sys.exit(main(sys.argv[1:]))\n")


def in_process(course: Course, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT_NBGRADER, "--course-dir", str(course.root), *args],
                          cwd=REPO, capture_output=True, text=True, timeout=300)


def variant(course: Course, name: str, edit=None) -> None:
    """A copy of the fixture lesson `tiny` named `name`, its notebook changed by `edit`."""
    folder = course.source / name
    shutil.copytree(FIXTURES / "source" / "tiny", folder)
    (folder / "tiny.ipynb").rename(folder / f"{name}.ipynb")
    if edit:
        nb = nbformat.read(folder / f"{name}.ipynb", as_version=4)
        edit(nb)
        nbformat.write(nb, folder / f"{name}.ipynb")


def break_visible_assert(nb) -> None:
    cell = next(c for c in nb.cells if c.get("id") == "sums-test")
    cell.source = cell.source.replace("[3.0, 5.0, 7.0]", "[3.0, 5.0, 8.0]")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """One process over three lessons: the fixture as it is, one with a broken visible assert,
    and one with a mutant that is really right (so no test can reject it)."""
    course = Course.at(tmp_path_factory.mktemp("inprocess"))
    variant(course, "tiny")
    variant(course, "tiny-broken", break_visible_assert)
    variant(course, "tiny-lenient")
    (course.source / "tiny-lenient" / "mutants" / "right-after-all.py").write_text(
        "# replaces: checkpoint-solution\n# fails: checkpoint-test\ncheckpoint_answer = 2\n")
    report = course.root / "report.json"
    done = in_process(course, "--report", str(report))
    lines = {line.split()[1].rstrip(":"): line for line in done.stdout.splitlines() if line[:4] in ("ok  ", "FAIL")}
    return course, done, lines, json.loads(report.read_text())


def test_a_correct_solution_is_ok_and_its_mutants_rejected(run):
    _, done, lines, report = run
    assert lines["tiny"].startswith("ok   tiny: 2 graded cells pass, 2 mutants judged"), done.stdout + done.stderr
    entry = report["lessons"]["tiny"]
    assert (entry["status"], entry["mutants"], entry["mutant_problems"], entry["failing_cells"]) == ("ok", 2, [], [])
    assert entry["receipt"]["backend"] == "cpu" and report["platform"] == "cpu"


def test_a_mutant_the_tests_accept_fails_the_lesson(run):
    _, done, lines, report = run
    assert done.returncode == 1
    assert lines["tiny-lenient"].startswith("FAIL tiny-lenient:")
    assert "accepted mutants: right-after-all" in lines["tiny-lenient"]
    entry = report["lessons"]["tiny-lenient"]
    assert entry["accepted_mutants"] == ["right-after-all"]
    assert any(p.startswith("right-after-all: checkpoint-test accepted the mutant") for p in entry["mutant_problems"])


def test_a_broken_visible_assert_fails_naming_its_cell(run):
    _, _, lines, report = run
    assert lines["tiny-broken"].startswith("FAIL tiny-broken: failing cells: sums-test: failed: AssertionError")
    [failing] = report["lessons"]["tiny-broken"]["failing_cells"]
    assert failing["cell"] == "sums-test" and failing["error"]["ename"] == "AssertionError"
    assert "the column sums of [[0, 1, 2], [3, 4, 5]] are [3, 5, 7]" in failing["error"]["traceback"]
    assert report["lessons"]["tiny-broken"]["mutant_problems"] == ["not judged: the solution does not pass its own tests"]


def test_the_report_holds_the_exports_a_sandboxed_kernel_run_keeps(run):
    """The same check values, options and receipt as the grader's expected values from bubblewrap and papermill."""
    _, _, _, report = run
    ours = report["lessons"]["tiny"]["expected"]
    sandboxed = json.loads(expected_path(tiny_template(), "tiny", "cpu").read_text())
    assert set(ours["checks"]) == {"sums-test", "checkpoint-test"}
    assert ours["checks"] == sandboxed["checks"]
    assert ours["receipt"] == sandboxed["receipt"] and ours["platform"] == "cpu"


def test_skip_done_continues_a_report_and_counts_a_crash_as_a_failure(run, tmp_path):
    course, _, _, report = run
    crashed = copy.deepcopy(report)
    crashed["lessons"]["tiny-broken"] = {"status": "running"}  # the process died in it
    before = tmp_path / "before.json"
    before.write_text(json.dumps(crashed))
    again = in_process(course, "tiny", "tiny-broken", "--skip-done", str(before), "--report", str(tmp_path / "after.json"))
    assert again.returncode == 1, again.stderr
    assert "done tiny: ok" in again.stdout and "done tiny-broken: crashed" in again.stdout
    after = json.loads((tmp_path / "after.json").read_text())
    assert after["lessons"]["tiny"] == report["lessons"]["tiny"]
    assert after["lessons"]["tiny-broken"]["status"] == "crashed"


@pytest.mark.fast
def test_compare_exports_lists_a_differing_check_and_is_silent_on_equal_ones(tmp_path, capsys):
    values = {"kind": "array", "dtype": "float32", "shape": [2], "data": "AACAPwAAAEA="}  # [1, 2]
    checks = {"sums-test": {"sums": {"value": values, "options": {"rtol": 1e-3}}},
              "checkpoint-test": {"checkpoint": {"value": {"kind": "str", "value": "two"}, "options": {}}}}
    a = {"platform": "cpu", "lessons": {"tiny": {"expected": {"checks": checks}}}}
    b = copy.deepcopy(a)
    b["platform"] = "tpu"
    b["lessons"]["tiny"]["expected"]["checks"]["sums-test"]["sums"]["value"]["data"] = "AACAPwEAAEA="  # 2 + 1 ulp
    assert compare_reports(a, b) == ([], 2)  # within rtol=1e-3
    b["lessons"]["tiny"]["expected"]["checks"]["sums-test"]["sums"]["value"]["data"] = "AACAPwAAQEA="  # [1, 3]
    assert compare_reports(a, b) == (["tiny sums-test: sums: values differ beyond rtol=0.001, atol=0.002"], 2)
    paths = []
    for name, report in (("a", a), ("b", b)):
        paths.append(tmp_path / f"{name}.json")
        paths[-1].write_text(json.dumps(report))
    assert main(["compare-exports", str(paths[0]), str(paths[0])]) == 0
    assert capsys.readouterr().out == f"0 of 2 hidden checks differ ({paths[0]} on cpu as expected, {paths[0]} on cpu)\n"
    assert main(["compare-exports", str(paths[0]), str(paths[1])]) == 1
    assert capsys.readouterr().out.splitlines()[0] == "tiny sums-test: sums: values differ beyond rtol=0.001, atol=0.002"


@pytest.mark.fast
def test_lessons_are_selected_by_platform_and_split_into_shards():
    course = Course.at(REPO)
    chosen, skipped = select(course, [], "tpu", None)
    assert "welcome-cpu" not in chosen and "welcome-02" in chosen
    assert "skip welcome-cpu: it declares platforms cpu, not tpu" in skipped
    shards = [select(course, [], "tpu", f"{k}/3")[0] for k in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(chosen) and max(map(len, shards)) - min(map(len, shards)) <= 1
    assert Path(course.root / "exercises" / f"{chosen[0]}.py").is_file()


def test_check_source_on_the_in_process_backend_runs_each_solution_here(run):
    """The registry's in-process backend serves check-source: each solution runs kernel-free in
    the command's own process and is judged as a trusted run (a broken visible assert fails)."""
    course = run[0]
    done = subprocess.run([sys.executable, "-m", "jaxcourse.cli", "check-source", "tiny", "tiny-broken",
                           "--backend", "in-process", "--course-dir", str(course.root)],
                          cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("ok   tiny: 2 graded cells pass") and line.endswith("on cpu)") for line in lines)
    assert "FAIL tiny-broken: tiny-broken: the instructor solution does not pass its own tests:\n" \
           "  sums-test: failed: AssertionError" in done.stdout, done.stdout
