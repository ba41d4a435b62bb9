"""nbgrader's collect, choosing, copying and timing each submission itself; and nbgrader's submit
for the class hub's students.

`nbgrader submit` runs as the student: the inbound folder's name and its timestamp.txt carry the
student's own clock, and the student owns both, so either can be rewritten. The one time a
student cannot set is the inode change time (ctime) of what they submitted: every write,
rename or chmod moves it to the present, and no call sets it back. Everything else in the
folder is the student's too, links included. TimedCollect (configured as nbgrader's collect by
configure_nbgrader, so `nbgrader collect` and the formgrader's button use it) replaces
nbgrader's choice and copy: it copies each student's latest submission with inbound.py (regular
files only, no link followed, within caps, timed by the ctimes of what it copied), never
collects a submission made in a student's name by another account, skips with a reason what it
cannot read, and records each copy in .jaxcourse/exchange/ (Record), where `jaxcourse grade`
takes the submission's time and what collect refused from.
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from nbgrader.api import Gradebook, MissingEntry
from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import parse_utc

from ..course import Course
from ..run import safefs
from .inbound import Candidate, candidates, copy_folder, utc

AGREE_SECONDS = 60  # timestamp.txt within this of the exchange's time is not flagged
# Written by `nbgrader submit` beside the notebook (about 30 and 128 bytes), read within these caps.
EXCHANGE_FILES = {"timestamp.txt": 1024, "submission_secret.txt": 1024}
TIMESTAMP = "timestamp.txt"
SHOWN_SKIPPED = 50  # folders named in collect's summary; the count covers the rest
SHOWN_REFUSED = 5   # refused files named in a log line or a row's detail; the count covers the rest


def parse_timestamp(text: str | None) -> datetime | None:
    """nbgrader's timestamp.txt as a naive UTC time; None when absent or unreadable."""
    try:
        return parse_utc(text.strip()) if text else None
    except (ValueError, OverflowError):
        return None


def read_exchange_file(folder: Path, name: str) -> tuple[str | None, str | None]:
    """One of nbgrader's EXCHANGE_FILES, or None; and a note when one is there but is not used."""
    cap = EXCHANGE_FILES[name]
    try:
        raw = safefs.read_regular(folder / name, cap)
    except FileNotFoundError:
        return None, None
    except safefs.TooLarge as exc:
        return None, f"{name} ignored: {exc.size} bytes, over the {cap}-byte limit"
    except OSError:  # a link (O_NOFOLLOW), a folder, a pipe
        return None, f"{name} ignored: not a regular file (links are not followed)"
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError:
        return None, f"{name} ignored: not UTF-8 text"


def record_path(course: Course, lesson: str, student: str) -> Path:
    return course.state / "exchange" / lesson / f"{student}.json"


@dataclass(frozen=True)
class Record:
    """What collect copied for a student: from which inbound folder, when the exchange received it,
    its timestamp.txt as `jaxcourse grade` reads it, and what it refused (path -> why), or why it
    copied nothing (over_limit)."""
    inbound: str
    received: datetime
    timestamp: str | None
    refused: dict[str, str] = field(default_factory=dict)
    over_limit: str | None = None

    def save(self, course: Course, lesson: str, student: str) -> None:
        safefs.atomic_write(record_path(course, lesson, student),
                            json.dumps({**asdict(self), "received": self.received.isoformat()}))

    @classmethod
    def load(cls, course: Course, lesson: str, student: str) -> Record | None:
        try:
            data = json.loads(record_path(course, lesson, student).read_text())
            return cls(str(data["inbound"]), datetime.fromisoformat(data["received"]), data["timestamp"],
                       dict(data.get("refused", {})), data.get("over_limit"))
        except (OSError, ValueError, KeyError, TypeError):
            return None


def collected(course: Course, lesson: str, student: str, timestamp: str | None) -> Record | None:
    """The record of the collected copy whose timestamp.txt reads `timestamp`; None when collect
    recorded nothing for this copy (zip_collect, a folder copied by hand or replaced since)."""
    record = Record.load(course, lesson, student)
    return record if record is not None and record.timestamp == timestamp else None


def time_note(record: Record) -> str | None:
    """A note when the submission's timestamp.txt disagrees with the exchange's time, which counts."""
    claimed = parse_timestamp(record.timestamp)
    if claimed is not None and abs((claimed - record.received).total_seconds()) <= AGREE_SECONDS:
        return None
    shown = f"{claimed:%Y-%m-%d %H:%M:%S} UTC" if claimed else "nothing readable"
    return (f"submission time: timestamp.txt says {shown}, the exchange received it at "
            f"{record.received:%Y-%m-%d %H:%M:%S} UTC; the exchange's time counts")


class TimedCollect(ExchangeCollect):
    """nbgrader's collect (its options --update, --before-duedate and --student), each student's
    submission chosen by the exchange's ctime and copied without trusting it (inbound.py). A folder
    it cannot use is skipped and named at the end, and the other students are still collected.
    The owner check is always on (nbgrader's check_owner only warned)."""

    def init_src(self):
        if not self.coursedir.course_id:
            self.fail("No course id specified. Re-run with --course flag.")
        self.inbound_path = os.path.join(self.root, self.coursedir.course_id, "inbound")
        if not os.path.isdir(self.inbound_path):
            self.fail(f"Course not found: {self.inbound_path}")
        self.skipped: list[str] = []

    def copy_files(self):
        lesson = self.coursedir.assignment_id
        try:
            inbound = os.open(self.inbound_path, safefs.DIR_FLAGS)
        except OSError as exc:
            self.fail(f"cannot read the exchange's inbound folder {self.inbound_path}: {exc.strerror}")
        try:
            found, self.skipped = candidates(inbound, lesson, self.coursedir.student_id or "*", os.geteuid())
            students = sorted({candidate.student for candidate in found})
            if not students:
                self.log.warning(f"No submissions of '{lesson}' for course '{self.coursedir.course_id}' to collect")
            else:
                self.log.info(f"Processing {len(students)} submissions of '{lesson}' for course "
                              f"'{self.coursedir.course_id}'")
            due = self.due_date()
            for student in students:
                self.collect_student(inbound, student, in_order([c for c in found if c.student == student], due))
        finally:
            os.close(inbound)
        if self.skipped:
            more = len(self.skipped) - SHOWN_SKIPPED
            self.log.warning(f"skipped {len(self.skipped)} folder(s) of {lesson} in {self.inbound_path}, "
                             f"holding up no one else:\n"
                             + "\n".join(f"  {line}" for line in self.skipped[:SHOWN_SKIPPED])
                             + (f"\n  and {more} more" if more > 0 else ""))

    def due_date(self) -> datetime | None:
        """The lesson's due date when --before-duedate asks for it."""
        if not self.before_duedate:
            return None
        with Gradebook(self.coursedir.db_url, self.coursedir.course_id) as gb:
            try:
                return gb.find_assignment(self.coursedir.assignment_id).duedate
            except MissingEntry:
                return None

    def collect_student(self, inbound: int, student: str, ordered: list[Candidate]) -> None:
        lesson = self.coursedir.assignment_id
        dest = Path(self.coursedir.format_path(self.coursedir.submitted_directory, student, lesson))
        if dest.exists() and not (self.update or self.before_duedate):
            self.log.info(f"Submission already exists, use --update to update: {student} {lesson}")
            return
        for candidate in ordered:
            try:
                folder = os.open(candidate.name, safefs.DIR_FLAGS, dir_fd=inbound)  # ELOOP: a link put there since
            except OSError as exc:  # a folder its student made unreadable
                self.skipped.append(f"{candidate.name!r}: cannot be read ({exc.strerror})")
                continue
            try:
                if os.fstat(folder).st_uid != candidate.uid:  # deleted, and made again by another account
                    self.skipped.append(f"{candidate.name!r}: replaced by another account's folder")
                    continue
                self.copy_submission(folder, candidate, dest)
                return
            finally:
                os.close(folder)

    def copy_submission(self, folder: int, candidate: Candidate, dest: Path) -> None:
        """Copy it beside `dest`, then put it in place of what was collected before, unless that is as new."""
        lesson, course = self.coursedir.assignment_id, Course.at(self.coursedir.root)
        dest.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(dir=dest.parent, prefix=f".{dest.name}.collecting-"))
        try:
            copied = copy_folder(folder, candidate.uid, staging)
            record = Record(candidate.name, copied.received, read_exchange_file(staging, TIMESTAMP)[0],
                            copied.refused, copied.over_limit)
            existing = dest.exists()
            if existing and not self.replaces(record, Record.load(course, lesson, candidate.student)):
                self.log.info(f"No newer submission to collect: {candidate.student} {lesson}")
                return
            self.log.info(f"{'Updating' if existing else 'Collecting'} submission: {candidate.student} {lesson}")
            safefs.remove_tree(dest)
            staging.rename(dest)
            record.save(course, lesson, candidate.student)
        finally:
            safefs.remove_tree(staging)  # gone once renamed
        if record.over_limit:
            self.log.warning(f"{candidate.student} {lesson}: nothing copied, the submission holds {record.over_limit}")
        if record.refused:
            more = len(record.refused) - SHOWN_REFUSED
            shown = ", ".join(f"{path!r} ({why})" for path, why in list(record.refused.items())[:SHOWN_REFUSED])
            self.log.warning(f"{candidate.student} {lesson}: not copied: {shown}"
                             + (f" and {more} more" if more > 0 else ""))

    def replaces(self, record: Record, previous: Record | None) -> bool:
        """nbgrader's rule: --update takes a newer submission, --before-duedate any other one."""
        if previous is None:
            return True
        if self.before_duedate:
            return (record.inbound, record.received) != (previous.inbound, previous.received)
        return record.received > previous.received


def in_order(mine: list[Candidate], due: datetime | None) -> list[Candidate]:
    """A student's submissions, the one to collect first: the latest, or with a due date (nbgrader's
    --before-duedate) the latest before it; the others follow in case it cannot be read."""
    latest = sorted(mine, key=lambda candidate: (candidate.ctime, candidate.name), reverse=True)
    if due is None:
        return latest
    return sorted(latest, key=lambda candidate: utc(candidate.ctime) > due)  # stable: latest first within each


class PrivateSubmit(ExchangeSubmit):
    """nbgrader's submit, leaving the submission to its student and the exchange's group (the grader's,
    from inbound's set-group-id bit) instead of nbgrader's 0777, which lets anyone who learns the
    folder's name read, empty or fill it. The class hub configures students' nbgrader with it."""

    def copy_files(self):
        super().copy_files()
        os.chmod(os.path.join(self.inbound_path, self.assignment_filename), 0o770)
