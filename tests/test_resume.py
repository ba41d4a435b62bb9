"""Crash-resume, resubmission, determinism, feedback secrecy and the sandbox requirement."""
import csv
import os
import re
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psutil

from conftest import fresh_tiny, grade, release_nb, submit_solution
from jaxcourse.authoring import fabricate
from jaxcourse.grading.record import LedgerEntry
from jaxcourse.grading.report import read_csv, write_lesson_feedback

GRADE = [sys.executable, "-m", "jaxcourse.cli", "grade", "tiny"]


def start(course, *extra, env=None):
    return subprocess.Popen([*GRADE, "--course-dir", str(course.root), *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True, env=env)


def export_totals(course):
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(["nbgrader", "export", "--to", "export.csv"], cwd=course.root, env=env, check=True,
                   capture_output=True, timeout=300)
    with open(course.root / "export.csv", newline="") as handle:
        return {r["student_id"]: float(r["raw_score"]) for r in csv.DictReader(handle)}


def leftovers(token):
    """Processes still carrying this test's marker in their environment (bwrap inherits it)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get("JAXCOURSE_TEST_TOKEN") == token and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            pass
    return found


def started_a_sandbox(pid: int) -> bool:
    for child in psutil.Process(pid).children(recursive=True):
        try:
            if child.name() == "bwrap":
                return True
        except psutil.Error:  # gone between the listing and the look
            pass
    return False


def no_sandbox_left(token):
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if not leftovers(token):
            return True
        time.sleep(0.5)
    return False


def test_sigkill_at_any_moment_then_resume(tmp_path):
    course = fresh_tiny(tmp_path)
    token = uuid.uuid4().hex
    env = {**os.environ, "JAXCOURSE_TEST_TOKEN": token}
    students = ["s1", "s2", "s3", "s4"]
    for student in students:
        submit_solution(course, student)
    # Killed early (during set-up or the solution run), then killed between submissions.
    early = start(course, "--workers", "1", env=env)
    deadline = time.monotonic() + 300
    while not started_a_sandbox(early.pid):
        assert early.poll() is None and time.monotonic() < deadline, "the grader ended before starting a sandbox"
        time.sleep(0.02)
    os.killpg(early.pid, signal.SIGKILL)  # while its first sandbox starts
    early.wait()
    mid = start(course, "--workers", "1", env=env)
    seen = []
    for line in mid.stdout:
        seen.append(line)
        # A worker's two threads take one submission each: the fourth starts once two have ended.
        if line.startswith("[4/4]"):
            os.killpg(mid.pid, signal.SIGKILL)
            break
    mid.wait()
    assert any(line.startswith("[4/4]") for line in seen), "".join(seen)
    assert no_sandbox_left(token), "a killed grader must not leave sandboxes running"
    done = [s for s in students if LedgerEntry.path(course, "tiny", s).is_file()]
    assert len(done) >= 2, done

    resumed = subprocess.run([*GRADE, "--course-dir", str(course.root)], capture_output=True, text=True, timeout=900)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    for i, student in enumerate(students, 1):
        assert f"[{i}/4] {student}: {'unchanged, kept' if student in done else 'grading'}" in resumed.stdout
    # Two workers start together: each logs one whole line.
    started = [line for line in resumed.stdout.splitlines() if line.startswith("[") and "grading" in line]
    assert all(re.fullmatch(r"\[\d/4\] s\d: grading", line) for line in started), resumed.stdout
    rows = read_csv(course.grades / "tiny.csv")
    keys = [(r["student_id"], r["grade_id"]) for r in rows]
    assert len(keys) == len(set(keys)) == 8, "no row lost or duplicated"
    assert all(r["status"] == "ok" for r in rows)
    assert export_totals(course) == {student: 3.0 for student in students}


def test_resubmission_is_regraded_and_regrades_are_deterministic(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "steady")
    submit_solution(course, "changer")
    first = grade(course, "tiny")
    assert [r["points"] for r in first["changer"]] == ["2", "1"]
    (mutant,) = [m for m in fabricate.mutants(course, "tiny") if m.name == "wrong-option"]
    fabricate.submit(course, "changer", "tiny", fabricate.solved(course, "tiny", release_nb(course, "tiny"), mutant))
    log = []
    second = grade(course, "tiny", log=log.append)
    assert "[1/2] changer: grading" in log and "[2/2] steady: unchanged, kept" in log
    assert [r["points"] for r in second["changer"]] == ["2", "0"]
    assert export_totals(course)["changer"] == 2.0
    before = (course.grades / "tiny.csv").read_text()
    for ledger in (course.state / "ledger" / "tiny").glob("*.json"):
        ledger.unlink()
    grade(course, "tiny")
    assert (course.grades / "tiny.csv").read_text() == before, "a regrade gives the same rows"


def test_feedback_never_shows_hidden_tests_or_expected_values(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "right")
    wrong = "def column_sums(table):\n    return table.sum(axis=0) * 0 + 1\n"

    def edit(nb):
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") == "sums-solution":
                cell.source = wrong
        nb.cells.insert(2, __import__("nbformat").v4.new_code_cell("import jax.numpy as jnp\njnp.allclose = lambda *a, **k: True"))

    submit_solution(course, "wrong", edit=edit)
    rows = grade(course, "tiny")
    assert rows["wrong"][0]["status"] == "failed"
    write_lesson_feedback(course, "tiny")
    for student in ("right", "wrong"):
        html = (course.feedback / student / "tiny" / "tiny.html").read_text()
        # Check names are the author's descriptions and may show; hidden code and values may not.
        for secret in ("grader_check", "BEGIN HIDDEN", "arange(20", "jaxcourse.check", "AADwQQ"):
            assert secret not in html, (student, secret)
        for expected_value in ("30.", "34.", "38.", "42.", "46."):
            assert expected_value not in html, (student, expected_value)
        assert "points: " in html


def test_grading_refuses_to_run_without_bubblewrap(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "ada")
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    refused = subprocess.run([*GRADE, "--course-dir", str(course.root)], capture_output=True, text=True, env=env,
                             timeout=300)
    assert refused.returncode == 2 and "bubblewrap (bwrap) is not installed" in refused.stderr
    assert not (course.grades / "tiny.csv").exists()
    unsafe = subprocess.run([*GRADE, "--course-dir", str(course.root), "--unsafe-no-sandbox"], capture_output=True,
                            text=True, env=env, timeout=600)
    assert unsafe.returncode == 0, unsafe.stderr
    assert "WARNING: grading without a sandbox" in unsafe.stderr
    rows = read_csv(course.grades / "tiny.csv")
    assert [r["status"] for r in rows] == ["ok", "ok"]
    assert all("graded WITHOUT sandbox (--unsafe-no-sandbox)" in r["detail"] for r in rows)
