"""Grade every submission of a lesson: collect → sanitize → execute → score → record → report."""
from __future__ import annotations

import copy
import queue
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from nbformat.notebooknode import NotebookNode

from . import report
from ..course import Course
from ..run.bubblewrap import SandboxUnavailable
from ..run.supervise import Execution
from .collect import Submission, collect
from .late import assign_late_penalties
from .options import Options
from .record import (LedgerEntry, SubmissionMarks, TestCell, gradebook_marks, lesson_structure, record_grades,
                     reviewed_notebook, sync_gradebook, write_autograded)
from .sanitize import UnreadableSubmission, read_submission, sanitize
from .score import CellResult, Status, inert, score_cell
from .start import GradingStart
from .trusted import Executor, cells_by_grade_id, interrupted_by, run, source_hash

UNSAFE_NOTE = "graded WITHOUT sandbox (--unsafe-no-sandbox)"


@dataclass
class Graded:
    """One notebook's grading: rows for the CSV, the receipt, the executed notebook, and the
    student's file as read (its outputs are what autograded/ shows)."""
    rows: list[CellResult]
    receipt: dict | None
    notebook: NotebookNode | None
    own: NotebookNode | None = None


# ---------------------------------------------------------------- one submission

class GradingStopped(Exception):
    """The expected values could not be made, or the run was stopped: no notebook runs any more."""


class StageFailed(Exception):
    """A grading stage raised while handling one submission; the exception is the __cause__."""

    def __init__(self, stage: str):
        super().__init__(stage)
        self.stage = stage


@contextmanager
def stage(name: str):
    """Name the stage any exception below comes from, for the student's rows and the log."""
    try:
        yield
    except StageFailed:
        raise
    except Exception as exc:
        raise StageFailed(name) from exc


def grade_notebook(course: Course, lesson: str, notebook: str, student: str, path: Path | None,
                   tests: list[TestCell], expected: Callable[[], dict], options: Options, execute: Executor,
                   notes: list[str], why_missing: str | None = None) -> Graded:
    """Grade one notebook file (None: not submitted, for `why_missing`). `notes` (what collect
    chose or ignored) follow each row's own detail, before what reading repaired."""
    def all_rows(status: Status, detail: str, more: list[str] = ()) -> Graded:
        detail = inert("; ".join([detail, *notes, *more]), 400)
        return Graded([CellResult(t.grade_id, 0.0, t.max_points, status, detail) for t in tests], None, None)

    if path is None:
        return all_rows(Status.MISSING, why_missing or f"{notebook}.ipynb was not submitted")
    with stage("sanitize"):
        try:
            nb, repairs = read_submission(path)
        except UnreadableSubmission as exc:
            return all_rows(Status.ERROR, str(exc))
        own = copy.deepcopy(nb)
        try:
            nb, restored, readded = sanitize(course, lesson, notebook, student, nb)
        except UnreadableSubmission as exc:
            return all_rows(Status.ERROR, str(exc))
        except Exception as exc:  # nbgrader rejects impossible cell metadata
            return all_rows(Status.ERROR, f"could not restore the lesson's cells: {inert(exc, 160)}")
    repairs += restored
    with stage("execution"):
        execution, merged, receipt, problem = run(nb, execute)
    if problem:
        return all_rows(Status.TAMPERED, problem, repairs)
    if merged is None:
        return all_rows(*(interrupted_by(execution) or (Status.ERROR, "the notebook produced no result")), repairs)
    with stage("scoring"):
        return score_notebook(merged, own, execution, receipt, [*notes, *repairs], readded, tests,
                              expected()["checks"], options)


def score_notebook(merged: NotebookNode, own: NotebookNode, execution: Execution, receipt: dict | None,
                   notes: list[str], readded: set[str], tests: list[TestCell], expected: dict,
                   options: Options) -> Graded:
    """Score the graded run `merged`; `own` is the notebook as the student saved it, `readded` the
    test cells nbgrader put back."""
    cells = cells_by_grade_id(merged)
    rows = [score_cell(t.grade_id, t.max_points, cells.get(t.grade_id), expected.get(t.grade_id, {}),
                       interrupted_by(execution)) for t in tests]
    for row in rows:
        if row.grade_id in readded:
            row.detail = inert(f"{row.detail}; this test cell was missing from the submission "
                               "and was restored from the lesson")
    observed = (receipt or {}).get("backend")
    if receipt is not None and observed != options.platform:
        for row in rows:
            row.points, row.status = 0.0, Status.PLATFORM_MISMATCH
            row.detail = f"ran on {observed}, requested {options.platform}"
    elif receipt is None:
        notes.append("no device receipt: the grader's final cell did not report a platform")
    if notes:
        for row in rows:
            row.detail = inert("; ".join([row.detail, *notes]), 400)
    merged.metadata["jaxcourse"] = {"receipt": receipt, "requested_platform": options.platform,
                                    "results": [asdict(r) for r in rows], "seconds": round(execution.seconds, 2),
                                    **({"node": execution.node} if execution.node else {})}
    return Graded(rows, receipt, merged, own)


def grade_submission(course: Course, submission: Submission, structure: dict[str, list[TestCell]],
                     expected: Callable[[], dict], options: Options, execute: Executor,
                     gradebook_lock: threading.Lock) -> LedgerEntry:
    """Grade one student's folder, record it, and return its ledger entry; `expected` waits for the
    expected values, which scoring and recording need and running does not."""
    graded_notebooks = {}
    for notebook, tests in structure.items():
        path, detail = submission.notebooks.get(notebook), submission.details.get(notebook)
        notes = [detail] if path is not None and detail else []  # which file stood in for the notebook
        notes += submission.notes + ([] if options.sandbox else [UNSAFE_NOTE])
        graded_notebooks[notebook] = grade_notebook(course, submission.lesson, notebook, submission.student, path,
                                                    tests, expected, options, execute, notes, detail)
    # Nothing is recorded without the instructor's values, even for a notebook that was never scored:
    # a failed solution run raises here.
    source_hash = expected()["source_hash"]
    results, csv_rows = {}, []
    for notebook, graded in graded_notebooks.items():
        results[notebook] = graded.rows
        with stage("recording"):
            reviewed = graded.notebook and reviewed_notebook(graded.notebook, graded.own, graded.rows)
            write_autograded(course, submission.lesson, submission.student, notebook, reviewed, graded.notebook,
                             submission.exchange)
        platform = (graded.receipt or {}).get("backend") or "unknown"
        csv_rows += [report.csv_row(submission.student, notebook, row, platform) for row in graded.rows]
    with gradebook_lock, stage("recording"):  # SQLite writes are serialised, one transaction per student
        record_grades(course, submission.lesson, submission.student, results, submission.submitted_at)
    return LedgerEntry(submission.student, "", source_hash, options.platform, csv_rows,
                       {notebook: [asdict(row) for row in rows] for notebook, rows in results.items()})


def failed_submission(course: Course, submission: Submission, structure: dict[str, list[TestCell]],
                      exc: BaseException, log: Path) -> LedgerEntry:
    """Rows for a submission the grader could not finish: never a quiet zero, and never kept.

    The traceback goes to `log`; the rows name the failure; the ledger is not written, so the
    next run grades the submission again.
    """
    where, exc = (exc.stage, exc.__cause__) if isinstance(exc, StageFailed) else ("grading", exc)
    infrastructure = isinstance(exc, (SandboxUnavailable, OSError, MemoryError))
    kind = "infrastructure failure" if infrastructure else "internal error (a grader bug)"
    detail = (f"{kind}: {type(exc).__name__}: {inert(exc, 120)}; stage: {where}; not graded, retried on the "
              f"next run; see {log}")
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("a", encoding="utf-8") as handle:
        handle.write(f"--- {time.strftime('%Y-%m-%dT%H:%M:%S')} {submission.student}: {kind} in {where}\n")
        handle.write("".join(traceback.format_exception(exc)))
    rows = [report.csv_row(submission.student, notebook, CellResult(t.grade_id, 0.0, t.max_points,
                                                                    Status.INTERNAL_ERROR, detail), "unknown")
            for notebook, tests in structure.items() for t in tests]
    return LedgerEntry(submission.student, "", "", "", rows)


def selected(course: Course, submissions: list[Submission], options: Options) -> list[Submission]:
    """The submissions of this run: all; or with --student, those students' (refuse_without_submissions
    checked that each exists) and the others already graded, whose last grades stay in the CSV."""
    return [s for s in submissions if not options.students or s.student in options.students
            or LedgerEntry.path(course, s.lesson, s.student).is_file()]


def changed_elsewhere(entry: LedgerEntry, marks: SubmissionMarks | None) -> str:
    """Why the gradebook no longer holds what this grader recorded for `entry`, or "" when it does
    (`nbgrader autograde`, an edit of the database, a student removed in the formgrader). Hand
    grades are the formgrader's to change and do not count."""
    if marks is None:
        return "the gradebook has no submission of it any more"
    for notebook, rows in entry.cells.items():
        for row in rows:
            mark = marks.cells.get((notebook, row["grade_id"]))
            if mark is None or mark.auto != row["points"]:
                found = "nothing" if mark is None or mark.auto is None else f"{mark.auto:g}"
                return (f"the gradebook was changed outside `jaxcourse grade` ({row['grade_id']}: {found} there, "
                        f"{row['points']:g} recorded here)")
    return ""


def digest_or_none(submission: Submission) -> str | None:
    """The submission's hash, or None when hashing fails (its grading then names the failure)."""
    try:
        return submission.content_hash()
    except Exception:
        return None


def grade_lesson(course: Course, lesson: str, options: Options, begun: GradingStart | None = None
                 ) -> report.Summary:
    """Grade all submissions of `lesson`; return a summary. Raises on untrustworthy setups, and
    when there is nothing to grade (grading/start.py). `begun`: the grading as started before this
    module was imported (the command line's); by default it starts here."""
    with begun or GradingStart(course, lesson, options) as begun:
        return grade_begun(course, lesson, options, begun)


def grade_begun(course: Course, lesson: str, options: Options, begun: GradingStart) -> report.Summary:
    """The rest of grade_lesson, while the expected values are made."""
    course.ensure_config_file()
    sync_gradebook(course, lesson)
    structure = lesson_structure(course, lesson)
    submissions, skipped = collect(course, lesson, list(structure))
    for reason in skipped:
        options.log(f"skipped {reason}")
    submissions = selected(course, submissions, options)
    total, expected_hash = len(submissions), source_hash(course, lesson)
    before = gradebook_marks(course, lesson)
    kept: dict[int, LedgerEntry] = {}
    for index, submission in enumerate(submissions):
        entry = LedgerEntry.load(course, lesson, submission.student)
        if options.students and submission.student not in options.students and entry:
            kept[index] = entry  # not selected: its last grade stands, whatever changed since
            continue
        if options.force or not entry or (entry.submission_hash, entry.expected_hash, entry.platform) != (
                digest_or_none(submission), expected_hash, options.platform):
            continue
        changed = changed_elsewhere(entry, before.get(submission.student))
        if changed:
            options.log(f"[{index + 1}/{total}] {submission.student}: {changed}; grading again")
            continue
        options.log(f"[{index + 1}/{total}] {submission.student}: unchanged, kept")
        kept[index] = entry
    todo = [i for i in range(total) if i not in kept]
    workers = begun.workers
    begun.pool.expect(len(todo) * len(structure))
    slots: queue.Queue[Executor] = queue.Queue()
    for slot in begun.pool.executors:
        slots.put(slot)
    lock = threading.Lock()
    progress = options.progress
    progress.start(lesson, total, kept=len(kept))
    # Submissions run while the expected values are made (begun.may_run says when they may); only
    # their scoring waits for the values. `stopped`: this run ends early, nothing more is recorded.
    stopped = threading.Event()

    log = course.state / "logs" / f"{lesson}.log"

    def execute(nb: NotebookNode) -> Execution:
        """Run `nb` in a free worker slot, held only while it runs: reading, scoring and recording
        a submission (and waiting for the expected values) overlap the next one's run, and the
        first submissions are read and sanitized before they may run."""
        begun.may_run.wait()
        if begun.failed() or stopped.is_set():
            raise GradingStopped
        slot = slots.get()
        try:
            return slot(nb)
        finally:
            slots.put(slot)

    def grade_one(index: int) -> LedgerEntry | None:
        submission = submissions[index]
        try:  # whatever fails for one submission fails only its own rows
            if submission.failure is not None:
                raise StageFailed("collect") from submission.failure
            with stage("hashing"):
                digest = submission.content_hash()  # before grading: a file changed meanwhile is regraded next run
            with lock:  # one whole line at a time
                options.log(f"[{index + 1}/{total}] {submission.student}: grading")
            entry = grade_submission(course, submission, structure, begun.expected.result, options, execute, lock)
            entry.submission_hash = digest
            with lock, stage("recording"):
                entry.save(course, lesson)
        except Exception as exc:
            if begun.failed() or stopped.is_set():
                return None  # the run stops: see below
            entry = failed_submission(course, submission, structure, exc, log)
        with lock:
            progress.advance(entry)
        return entry

    try:
        # Twice the workers: while `workers` of them run notebooks, the rest read, score and record.
        with ThreadPoolExecutor(max_workers=2 * workers) as threads:
            running = [threads.submit(grade_one, index) for index in todo]
            try:
                begun.expected.result()  # no grades without expected values: nothing is recorded
            except BaseException:
                stopped.set()
                for future in running:
                    future.cancel()
                raise
            fresh = {index: future.result() for index, future in zip(todo, running)}
    finally:
        progress.stop()
    students = [submission.student for submission in submissions]
    assign_late_penalties(course, lesson, students)
    after = gradebook_marks(course, lesson)
    summary = report.write_csv(course, lesson, [kept.get(i) or fresh[i] for i in range(total)], after)
    summary.graded, summary.seconds, summary.workers = len(todo), time.monotonic() - begun.began, workers
    most = sum(t.max_points for tests in structure.values() for t in tests)
    regraded = [submissions[i].student for i in todo if submissions[i].student in before]
    summary.changes = report.score_changes(before, after, regraded, most) if regraded else None
    summary.error_log = log if summary.internal_errors else None
    return summary
