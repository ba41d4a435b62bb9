"""Grader trust: every real submission is graded, and no submission can harm the class, the
grader or the instructor. One course, graded once, holds a student per attack; the rest run
single sandboxes or inject faults into one grading stage."""
import codecs
import json
import re
import threading

import nbformat
import pytest

from conftest import fresh_tiny, grade, submit_solution
from jaxcourse.authoring.release import release
from jaxcourse.grading import grade as grading
from jaxcourse.grading.expected import cache_path, trusted_run
from jaxcourse.grading.grade import Options, grade_lesson
from jaxcourse.course import CourseError
from jaxcourse.grading.record import LedgerEntry, gradebook_marks
from jaxcourse.grading.report import read_csv, write_lesson_feedback
from jaxcourse.run import backends, bubblewrap
from jaxcourse.run.execute import PlatformUnavailable, Sandbox, SandboxSpec
from jaxcourse.run.limits import Limits
from test_core import colab_download
from test_fast_grading import printed
from test_hostile import code

CHECK = "application/vnd.jaxcourse.check+json"


def after_setup(source):
    def edit(nb):
        nb.cells.insert(2, code(source))
    return edit


def answer(sums):
    def edit(nb):
        for cell in nb.cells:
            if cell.metadata.get("nbgrader", {}).get("grade_id") == "sums-solution":
                cell.source = sums
    return edit


STUDENTS = {
    "honest": None,
    # Rebinds grader_check so the hidden test exports records the grader cannot read.
    "forger": after_setup(
        "from IPython.display import display\n"
        f"def grader_check(name, value, **options):\n"
        f"    display({{{CHECK!r}: {{'name': name, 'value': ['not', 'an', 'export']}}}}, raw=True)\n"),
    # Leaves a tree deeper than Python's recursion limit in the grader's output folder.
    "deep": after_setup(
        "import os\nfd = os.open('/grader/out', os.O_RDONLY)\n"
        "for _ in range(3000):\n"
        "    os.mkdir('d', dir_fd=fd)\n    inner = os.open('d', os.O_RDONLY, dir_fd=fd)\n"
        "    os.close(fd)\n    fd = inner\n"),
    # An exception class named like a spreadsheet formula, with terminal escapes in its message.
    "formula": answer(
        "Evil = type('=HYPERLINK(\"http://evil.example\",\"fix\")', (Exception,), {})\n"
        "def column_sums(table):\n    raise Evil('\\x1b[2J\\x1b[31mboom\\u202e')\n"),
    # Prints what the graded run holds: the restored hidden tests are in `In` and in the file.
    "snoop": after_setup(
        "print('HISTORY', In)\nprint('FILE', open('/grader/in/submission.ipynb').read())\n"),
}


def as_colab_download(path):
    """Rewrite a submitted file the way Colab's File → Download .ipynb writes it, with a BOM."""
    data = colab_download(json.loads(path.read_text()))
    path.write_bytes(codecs.BOM_UTF8 + json.dumps(data).encode())


def with_displayed_html(path):
    """Outputs of the student's own run that would attack whoever opens the feedback page."""
    data = json.loads(path.read_text())
    attack = ('<script>alert("xss")</script><img src=x onerror="alert(1)">'
              '<a href="javascript:alert(2)">link</a>')
    data["cells"].insert(2, {"cell_type": "markdown", "id": "attack-md", "metadata": {},
                             "source": "Markdown with " + attack})
    for cell in data["cells"]:
        if cell["cell_type"] == "code":
            cell["outputs"] = [{"output_type": "display_data", "metadata": {},
                                "data": {"text/html": attack, "application/javascript": "alert(3)",
                                         "text/plain": "shown"}}]
            break
    path.write_text(json.dumps(data))


@pytest.fixture(scope="module")
def trust(tmp_path_factory):
    course = fresh_tiny(tmp_path_factory.mktemp("trust"))
    # The instructor's solution compiles a program of its own: it must not reach a student.
    path = course.lesson_notebook("tiny")
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.get("id") == "sums-solution":
            cell.source = cell.source.replace("def column_sums", "@jax.jit\ndef column_sums")
    nbformat.write(nb, path)
    release(course, ["tiny"])
    for student, edit in STUDENTS.items():
        submit_solution(course, student, edit=edit)
    as_colab_download(submit_solution(course, "colab"))
    with_displayed_html(course.submitted / "snoop" / "tiny" / "tiny.ipynb")
    rows = grade(course, "tiny", limits=Limits(cell_timeout=30, notebook_timeout=120))
    write_lesson_feedback(course, "tiny")
    return course, {student: {r["grade_id"]: r for r in got} for student, got in rows.items()}


def full_marks(rows):
    return all(r["status"] == "ok" and r["points"] == r["max_points"] for r in rows.values())


def test_a_colab_download_scores_full_marks_and_says_what_was_repaired(trust):
    _, rows = trust
    assert full_marks(rows["colab"]), rows["colab"]
    assert "upgraded from nbformat 4.0 (Colab)" in rows["colab"]["sums-test"]["detail"]
    assert "byte-order mark removed" in rows["colab"]["sums-test"]["detail"]


def test_malformed_check_records_fail_only_their_submission(trust):
    _, rows = trust
    assert {r["status"] for r in rows["forger"].values()} == {"tampered"}, rows["forger"]
    assert full_marks(rows["honest"])


def test_a_deep_tree_in_the_output_folder_fails_only_its_submission(trust):
    _, rows = trust
    assert rows["deep"]["sums-test"]["points"] == "0"
    assert "output size limit exceeded" in rows["deep"]["sums-test"]["detail"], rows["deep"]


def test_student_text_reaches_the_csv_inert(trust):
    course, rows = trust
    detail = rows["formula"]["sums-test"]["detail"]
    assert detail.startswith("'=HYPERLINK(") and "boom" in detail
    assert not re.search("[\x00-\x1f\x7f\u202e]", detail)
    raw = (course.grades / "tiny.csv").read_text()
    assert "\x1b" not in raw and "\n=" not in raw and ",=" not in raw


def test_feedback_shows_the_submitted_notebook_and_nothing_hidden(trust):
    course, rows = trust
    page = (course.feedback / "snoop" / "tiny" / "tiny.html").read_text()
    hidden = release_secret_lines(course)
    assert hidden and not any(line in page for line in hidden), [line for line in hidden if line in page]
    assert "grader_check" not in page and "BEGIN HIDDEN" not in page  # the graded run's outputs never appear
    assert "shown" in page or "Markdown with" in page  # the student's own outputs and prose do


def test_feedback_runs_no_student_script(trust):
    course, _ = trust
    page = (course.feedback / "snoop" / "tiny" / "tiny.html").read_text()
    assert '<script>alert("xss")' not in page and "alert(3)" not in page
    assert not re.search(r"<img[^>]*onerror", page) and not re.search(r"<a[^>]*javascript:", page)


def test_feedback_puts_the_score_summary_first(trust):
    course, _ = trust
    page = (course.feedback / "honest" / "tiny" / "tiny.html").read_text()
    summary = page.index('id="jaxcourse-summary"')
    assert "Score: 3 / 3" in page[summary:summary + 400]
    assert summary < page.index("Tiny lesson", summary)


def release_secret_lines(course):
    """Every hidden-test line of the lesson, as the grader restores it."""
    source = nbformat.read(course.source / "tiny" / "tiny.ipynb", as_version=4)
    lines = []
    for cell in source.cells:
        match = re.search(r"### BEGIN HIDDEN TESTS\n(.*?)### END HIDDEN TESTS", cell.source, re.S)
        if match:
            lines += [line.strip() for line in match.group(1).splitlines() if line.strip()]
    return lines


def test_the_cache_holds_only_programs_compiled_from_visible_code(trust):
    course, rows = trust
    entries = [p.name for p in cache_path(course, "tiny", "cpu").iterdir()]
    assert any("lambda" in name for name in entries), entries   # the worked example, visible to all
    assert not any("column_sums" in name for name in entries), entries  # the instructor's solution
    assert full_marks(rows["honest"])


# ---------------------------------------------------------------- single sandboxes

def test_nothing_the_kernel_prints_is_read_as_a_control_message():
    execution = Sandbox(SandboxSpec("cpu")).run(nbformat.v4.new_notebook(cells=[code(
        "import os\nos.write(1, b'{\"fatal\": \"forged by the student\"}\\n')\n"
        "os.write(2, b'{\"fatal\": \"forged by the student\"}\\n')\nprint('done')")]))
    assert execution.fatal == "" and not execution.timed_out
    assert "done" in printed(execution)


def test_dev_is_read_only_and_dev_shm_is_capped():
    limits = Limits(scratch_bytes=4 * 2**20)
    execution = Sandbox(SandboxSpec("cpu", limits)).run(nbformat.v4.new_notebook(cells=[code(
        "import errno\n"
        "def attempt(path, size):\n"
        "    try:\n        open(path, 'wb').write(b'x' * size)\n        return 'wrote'\n"
        "    except OSError as exc:\n        return errno.errorcode[exc.errno]\n"
        "print('shm-small', attempt('/dev/shm/a', 1024))\n"
        "print('shm-large', attempt('/dev/shm/b', 16 * 2**20))\n"
        "print('dev', attempt('/dev/planted', 10))\n")]))
    out = printed(execution)
    assert "shm-small wrote" in out and "shm-large ENOSPC" in out and "dev EROFS" in out, out


# ---------------------------------------------------------------- faults inside one grading stage

def grade_course(course, **options):
    options.setdefault("log", lambda *_: None)
    return grade_lesson(course, "tiny", Options(**options))


def test_a_solution_that_fails_its_own_tests_stops_grading_and_records_nothing(tmp_path):
    """Submissions run while the solution runs; when the solution fails, none of what they
    produced is kept: no grade, no ledger entry, no CSV, no autograded notebook. Not even for a
    submission that is never scored (d's file is not a notebook), and so needs no expected values."""
    course = fresh_tiny(tmp_path)
    for student in ("a", "b", "c"):
        submit_solution(course, student)
    junk = course.submitted / "d" / "tiny" / "tiny.ipynb"
    junk.parent.mkdir(parents=True)
    junk.write_text("not a notebook")
    source = course.lesson_notebook("tiny")
    nb = nbformat.read(source, as_version=4)
    (cell,) = [c for c in nb.cells if c.metadata.get("nbgrader", {}).get("grade_id") == "sums-solution"]
    cell.source = "def column_sums(table):\n    return table.sum(axis=0) + 1\n"
    nbformat.write(nb, source)
    with pytest.raises(CourseError, match="does not pass its own tests"):
        grade_course(course, workers=2)
    assert not any(LedgerEntry.path(course, "tiny", student).exists() for student in ("a", "b", "c", "d"))
    assert not (course.grades / "tiny.csv").exists() and not any(course.autograded.rglob("*.ipynb"))
    assert not any(marks.cells for marks in gradebook_marks(course, "tiny").values())


def test_a_solution_whose_sandbox_does_not_start_says_why(tmp_path, monkeypatch):
    """The instructor sees bwrap's own words, not only the runner's exit status."""
    course = fresh_tiny(tmp_path)
    monkeypatch.setattr(bubblewrap, "BASIC_DEVICES", (*bubblewrap.BASIC_DEVICES, "jaxcourse-missing"))
    with pytest.raises(CourseError, match=r"tiny: the solution notebook did not run: the notebook runner exited "
                                          r"with status 1\n  its last output:\n.*/dev/jaxcourse-missing"):
        trusted_run(course, "tiny", Options(log=lambda *_: None))


def test_with_stored_values_submissions_run_beside_the_platform_check_and_its_failure_records_nothing(
        tmp_path, monkeypatch):
    """A second grading (the expected values stored) checks that JAX starts the platform here; on
    CPU the submissions do not wait for that check, and a check that fails keeps nothing of theirs."""
    course = fresh_tiny(tmp_path)
    for student in ("a", "b"):
        submit_solution(course, student)
    ran = threading.Event()
    run = Sandbox.run

    def running(self, nb):
        ran.set()
        return run(self, nb)

    def failing_check(platform):
        ran.wait(120)
        raise PlatformUnavailable("JAX cannot use cpu here (a stand-in for a broken install)")

    monkeypatch.setattr(Sandbox, "run", running)
    monkeypatch.setattr(backends.BACKENDS["local"], "preflight", failing_check)
    with pytest.raises(PlatformUnavailable):
        grade_course(course, workers=2)
    assert ran.is_set(), "the submissions waited for the platform check"
    assert not any(LedgerEntry.path(course, "tiny", student).exists() for student in ("a", "b"))
    assert not (course.grades / "tiny.csv").exists() and not any(course.autograded.rglob("*.ipynb"))
    assert not any(marks.cells for marks in gradebook_marks(course, "tiny").values())


def test_a_grader_bug_in_one_submission_is_named_logged_and_retried(tmp_path, monkeypatch):
    course = fresh_tiny(tmp_path)
    for student in ("a", "b", "c"):
        submit_solution(course, student)
    real = grading.record_grades

    def broken_for_b(course_, lesson, student, *args):
        if student == "b":
            raise RuntimeError("a bug in recording")
        return real(course_, lesson, student, *args)

    monkeypatch.setattr(grading, "record_grades", broken_for_b)
    summary = grade_course(course)
    rows = {(r["student_id"], r["grade_id"]): r for r in read_csv(summary.csv_path)}
    assert len(rows) == 6 and summary.internal_errors == 1
    assert rows[("b", "sums-test")]["status"] == "internal-error"
    assert "internal error (a grader bug): RuntimeError: a bug in recording" in rows[("b", "sums-test")]["detail"]
    assert rows[("a", "sums-test")]["status"] == rows[("c", "sums-test")]["status"] == "ok"
    assert "a bug in recording" in summary.error_log.read_text() and "Traceback" in summary.error_log.read_text()
    assert LedgerEntry.load(course, "tiny", "b") is None  # not kept as a final grade

    monkeypatch.setattr(grading, "record_grades", real)
    again = grade_course(course)
    assert again.graded == 1 and again.internal_errors == 0  # only b is graded again


def test_an_infrastructure_failure_is_retried_not_graded(tmp_path, monkeypatch):
    course = fresh_tiny(tmp_path)
    real = backends.Sandbox

    class NoSandbox(real):
        def __init__(self, spec):
            raise OSError(24, "Too many open files")

    submit_solution(course, "b")  # the instructor's expected values come with the fresh course
    monkeypatch.setattr(backends, "Sandbox", NoSandbox)
    summary = grade_course(course)
    (row,) = [r for r in summary.rows if r["grade_id"] == "sums-test"]
    assert row["status"] == "internal-error" and row["detail"].startswith("infrastructure failure: OSError")
    monkeypatch.setattr(backends, "Sandbox", real)
    again = grade_course(course)
    assert again.graded == 1 and {r["status"] for r in again.rows} == {"ok"}


def test_a_submission_changed_while_it_was_graded_is_graded_again(tmp_path, monkeypatch):
    course = fresh_tiny(tmp_path)
    path = submit_solution(course, "a")
    real = grading.grade_submission

    def resubmitted_meanwhile(*args, **kwargs):
        entry = real(*args, **kwargs)
        path.write_text(path.read_text().replace("Tiny lesson", "Tiny lesson, resubmitted"))
        return entry

    monkeypatch.setattr(grading, "grade_submission", resubmitted_meanwhile)
    grade_course(course)
    monkeypatch.setattr(grading, "grade_submission", real)
    assert grade_course(course).graded == 1
