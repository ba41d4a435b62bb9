"""nbgrader's collect, timed by the exchange instead of by the student.

`nbgrader submit` runs as the student: the inbound folder's name and its timestamp.txt carry the
student's own clock, and the student owns both, so either can be rewritten. The one time a
student cannot set is the inode change time (ctime) of what they submitted: every write,
rename or chmod moves it to the present, and no call sets it back. TimedCollect (configured as
nbgrader's collect by configure_nbgrader, so `nbgrader collect` and the formgrader's button use
it) picks each student's latest submission by that time, never collects a submission made in a
student's name by another account, and records the time in .jaxcourse/exchange/, where
`jaxcourse grade` takes each submission's time from. PrivateSubmit is nbgrader's submit for
the class hub's students.
"""
from __future__ import annotations

import json
import os
import pwd
from datetime import datetime, timezone
from pathlib import Path

from nbgrader.exchange.default.collect import ExchangeCollect
from nbgrader.exchange.default.submit import ExchangeSubmit
from nbgrader.utils import parse_utc

from ..course import Course
from ..run.safefs import atomic_write

AGREE_SECONDS = 60          # timestamp.txt within this of the exchange's time is not flagged
NEVER = datetime(1970, 1, 1)  # an impostor's submission sorts before any genuine one


def received(folder: str | os.PathLike) -> datetime:
    """The latest ctime of the folder and everything in it (links not followed), as naive UTC
    like nbgrader's timestamps: the last time anyone changed the submission."""
    latest = os.lstat(folder).st_ctime
    for parent, folders, files in os.walk(folder):
        for name in folders + files:
            latest = max(latest, os.lstat(os.path.join(parent, name)).st_ctime)
    return datetime.fromtimestamp(latest, timezone.utc).replace(tzinfo=None)


def parse_timestamp(text: str | None) -> datetime | None:
    """nbgrader's timestamp.txt as a naive UTC time; None when absent or unreadable."""
    try:
        return parse_utc(text.strip()) if text else None
    except (ValueError, OverflowError):
        return None


def owner(path: str | os.PathLike) -> str:
    uid = os.lstat(path).st_uid
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def record_path(course: Course, lesson: str, student: str) -> Path:
    return course.state / "exchange" / lesson / f"{student}.json"


class TimedCollect(ExchangeCollect):
    """nbgrader's ExchangeCollect, choosing and timing each submission by the exchange's ctime."""

    def _path_to_record(self, path):
        record = super()._path_to_record(path)
        folder = os.path.join(self.inbound_path, record["filename"])
        # On a one-account exchange (tests, a laptop) the collecting user submits for everyone.
        record["genuine"] = owner(folder) in (record["username"], pwd.getpwuid(os.geteuid()).pw_name)
        record["timestamp"] = received(folder) if record["genuine"] else NEVER
        if not record["genuine"]:
            self.log.error(f"not collected: {folder} is in {record['username']}'s name but belongs to {owner(folder)}")
        return record

    def init_src(self):
        super().init_src()  # an impostor's record is chosen only where its student submitted nothing
        self.src_records = [record for record in self.src_records if record["genuine"]]

    def do_copy(self, src, dest, log=None):
        super().do_copy(src, dest, log)
        # Read after copying: a change made while copying makes the time later, never earlier.
        student, lesson = Path(dest).parent.name, Path(dest).name
        try:
            stamp = (Path(dest) / "timestamp.txt").read_text()[:1024]
        except (OSError, UnicodeDecodeError):
            stamp = None
        record = {"inbound": os.path.basename(src), "received": received(src).isoformat(), "timestamp": stamp}
        atomic_write(record_path(Course.at(self.coursedir.root), lesson, student), json.dumps(record))


class PrivateSubmit(ExchangeSubmit):
    """nbgrader's submit, leaving the submission to its student and the exchange's group (the grader's,
    from inbound's set-group-id bit) instead of nbgrader's 0777, which lets anyone who learns the
    folder's name read, empty or fill it. The class hub configures students' nbgrader with it."""

    def copy_files(self):
        super().copy_files()
        os.chmod(os.path.join(self.inbound_path, self.assignment_filename), 0o770)


def exchange_time(course: Course, lesson: str, student: str, timestamp: str | None) -> tuple[datetime | None, str | None]:
    """When the exchange received the collected submission whose timestamp.txt reads `timestamp`,
    and a note when timestamp.txt disagrees with it; (None, None) when collect recorded nothing
    for this copy (zip_collect, a folder copied by hand)."""
    try:
        record = json.loads(record_path(course, lesson, student).read_text())
        when = datetime.fromisoformat(record["received"])
    except (OSError, ValueError, KeyError, TypeError):
        return None, None
    if record.get("timestamp") != timestamp:
        return None, None  # another copy replaced the collected one
    claimed = parse_timestamp(timestamp)
    if claimed is not None and abs((claimed - when).total_seconds()) <= AGREE_SECONDS:
        return when, None
    shown = f"{claimed:%Y-%m-%d %H:%M:%S} UTC" if claimed else "nothing readable"
    return when, (f"submission time: timestamp.txt says {shown}, the exchange received it at "
                  f"{when:%Y-%m-%d %H:%M:%S} UTC; the exchange's time counts")
