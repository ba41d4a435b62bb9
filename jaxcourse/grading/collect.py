"""Find submissions in nbgrader's layout: submitted/<student>/<lesson>/<notebook>.ipynb.

A lesson folder is the student's: only its own entries are listed (at most MAX_ENTRIES, and
never a subfolder, so no depth reaches the grader), no link is followed, and every file the
grader reads (the notebooks and nbgrader's timestamp.txt and submission_secret.txt) is read
within a size cap. What `nbgrader collect` recorded for the copy (exchange.Record) gives the
submission's time and says what collect refused to copy.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path


from ..course import Course
from ..run import safefs
from .exchange import (EXCHANGE_FILES, SHOWN_REFUSED, TIMESTAMP, Record, collected, parse_timestamp, read_exchange_file,
                       time_note)

MAX_ENTRIES = 1000                # entries of a lesson folder looked at
MAX_NOTEBOOK_BYTES = 20 * 2**20


def shown(name: str) -> str:
    """A file name from a submission, quoted, as text any UTF-8 writer accepts."""
    return repr(name.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))


@dataclass
class Submission:
    student: str
    lesson: str
    folder: Path
    notebooks: dict[str, Path] = field(default_factory=dict)  # lesson notebook -> the file graded for it
    details: dict[str, str] = field(default_factory=dict)     # lesson notebook -> why that file, or why none
    notes: list[str] = field(default_factory=list)            # for every row: what was ignored, and why
    exchange: dict[str, str] = field(default_factory=dict)    # EXCHANGE_FILES present, name -> text
    failure: Exception | None = None                          # scanning the folder failed: the grader's fault
    received: datetime | None = None                          # when the exchange received it (TimedCollect)

    @property
    def timestamp(self) -> str | None:
        return self.exchange.get(TIMESTAMP)

    @property
    def submitted_at(self) -> datetime | None:
        """The submission's time for late penalties: the exchange's, else the student's timestamp.txt."""
        return self.received if self.received is not None else parse_timestamp(self.timestamp)

    def content_hash(self) -> str:
        """Hash of everything grading reads, so a resubmission is noticed: the notebooks graded,
        each within its cap, what collect chose or ignored (other notebooks' names), and the timestamp."""
        if self.failure is not None:
            raise self.failure
        digest = hashlib.sha256()
        for name in sorted(self.notebooks):
            path = self.notebooks[name]
            digest.update(f"{name}\0{path.name}\0".encode("utf-8", "surrogateescape"))
            try:
                digest.update(safefs.read_regular(path, MAX_NOTEBOOK_BYTES))
            except OSError as exc:  # graded as unreadable; its size tells a replacement apart
                digest.update(f"unreadable {getattr(exc, 'size', '')} {type(exc).__name__}".encode())
        received = [self.received.isoformat()] if self.received else []  # no exchange record: hashes as before
        for text in (*self.details.values(), *self.notes, *self.exchange.values(), *received):
            digest.update(b"\0" + text.encode("utf-8", "surrogateescape"))
        return digest.hexdigest()


def scan(student: str, lesson: str, folder: Path, notebook_names: list[str]) -> Submission:
    """Which file stands for each of the lesson's notebooks, and what was ignored."""
    submission = Submission(student, lesson, folder)
    entries, more = safefs.list_folder(folder, MAX_ENTRIES)
    if more:
        submission.notes.append(f"the folder holds more than {MAX_ENTRIES} entries: only the lesson's notebooks, "
                                f"by their exact names, and nbgrader's own files were looked at")
        entries = {f"{name}.ipynb": safefs.kind_of(folder / f"{name}.ipynb") for name in notebook_names}
        entries = {name: kind for name, kind in entries.items() if kind is not None}
    found = sorted(name for name, kind in entries.items() if kind == "file" and name.endswith(".ipynb"))
    unclaimed = [name for name in found if name[:-len(".ipynb")] not in notebook_names]
    for notebook in notebook_names:
        exact = f"{notebook}.ipynb"
        if entries.get(exact) == "file":
            submission.notebooks[notebook] = folder / exact
            continue
        if exact in entries:
            submission.details[notebook] = f"{exact} is not a regular file (links are not followed)"
            continue
        # A renamed copy (Colab's "Save a copy in Drive" writes "Copy of <lesson>.ipynb"): the
        # folder's only notebook when the lesson has one, else Colab's name for this notebook.
        # Two candidates are refused: grading either could be the wrong one.
        candidates = (unclaimed if len(notebook_names) == 1 and not more
                      else [name for name in unclaimed if name == f"Copy of {exact}"])
        if len(candidates) == 1:
            submission.notebooks[notebook] = folder / candidates[0]
            submission.details[notebook] = f"graded {shown(candidates[0])} as {exact}: the only notebook that could be it"
            unclaimed.remove(candidates[0])
        elif candidates:
            submission.details[notebook] = (f"{exact} was not submitted, and {len(candidates)} notebooks could be it: "
                                            f"{', '.join(map(shown, candidates))}; keep one, named {exact}")
            unclaimed = [name for name in unclaimed if name not in candidates]
    if unclaimed:
        submission.notes.append(f"ignored extra notebooks: {', '.join(map(shown, unclaimed))}")
    for name in EXCHANGE_FILES:
        text, note = read_exchange_file(folder, name)
        if text is not None:
            submission.exchange[name] = text
        if note:
            submission.notes.append(note)
    return submission


def add_record(submission: Submission, record: Record, notebook_names: list[str]) -> None:
    """The exchange's time, and what collect refused: a lesson notebook it refused, with nothing
    graded in its place, is missing for that reason; the rest is named on every row."""
    submission.received = record.received
    note = time_note(record)
    if note:
        submission.notes.append(note)
    refused = dict(record.refused)
    for notebook in notebook_names:
        if notebook in submission.notebooks or notebook in submission.details:
            continue
        if record.over_limit:
            submission.details[notebook] = f"collect copied nothing: the submission holds {record.over_limit}"
        elif f"{notebook}.ipynb" in refused:
            submission.details[notebook] = f"collect refused {notebook}.ipynb: {refused.pop(f'{notebook}.ipynb')}"
    if refused:
        named = [f"{shown(path)} ({why})" for path, why in list(refused.items())[:SHOWN_REFUSED]]
        more = f" and {len(refused) - SHOWN_REFUSED} more" if len(refused) > SHOWN_REFUSED else ""
        submission.notes.append(f"collect refused {len(refused)} file(s): {', '.join(named)}{more}")


def collect(course: Course, lesson: str, notebook_names: list[str]) -> tuple[list[Submission], list[str]]:
    """Submissions for a lesson, and a list of skipped folders with reasons."""
    folders, skipped = course.submission_folders(lesson)
    submissions = []
    for folder in folders:
        student = folder.parent.name
        try:
            submission = scan(student, lesson, folder, notebook_names)
            record = collected(course, lesson, student, submission.timestamp)
            if record is not None:
                add_record(submission, record, notebook_names)
            submissions.append(submission)
        except Exception as exc:  # one folder fails only its own student: graded as the grader's failure
            submissions.append(Submission(student, lesson, folder, failure=exc))
    return submissions, skipped
