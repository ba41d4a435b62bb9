"""Read nbgrader's inbound folder as the grader, trusting nothing a student made there.

Anyone may create entries in inbound, under any name, and everything inside a submission folder
is its student's: any entry may be a link to the instructor's files or another student's, a
hard link, a pipe, unreadable, or huge. `candidates` lists a lesson's submission folders by name
and owner without opening them; `copy_folder` copies one of them through directory
descriptors (openat, O_NOFOLLOW at every level), regular files only, and times it by the change
times (ctime) of the very folders and files it copied, each taken after reading, so nothing
copied can be newer than the time recorded for it.
"""
from __future__ import annotations

import os
import pwd
import stat
from dataclasses import dataclass, field
from datetime import datetime, timezone
from fnmatch import fnmatchcase
from pathlib import Path

from nbgrader.utils import parse_utc

from ..course import STUDENT_ID
from ..run.safefs import DIR_FLAGS, FILE_FLAGS, remove_tree

MAX_BYTES = 100 * 2**20   # per submission, as nbgrader's own max_dir_size (100 MB)
MAX_ENTRIES = 500         # files and folders per submission; a lesson hands out a few
MAX_DEPTH = 16            # folders inside folders
CHUNK = 2**20
TOO_BIG = f"more than {MAX_BYTES // 2**20} MiB in all"
KINDS = ((stat.S_ISLNK, "a symbolic link (links are not followed)"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
         (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device file"), (stat.S_ISBLK, "a device file"))


def not_a_file(mode: int) -> str:
    return next((why for test, why in KINDS if test(mode)), "not a regular file")


class OverLimit(Exception):
    """The submission is larger than a cap allows: nothing of it is collected."""


@dataclass(frozen=True)
class Candidate:
    """A folder in inbound named `<student>+<lesson>+<time>+<random>`, owned by `uid`."""
    name: str
    student: str
    uid: int
    ctime: float  # of the folder itself: which of a student's submissions came last


@dataclass
class Copied:
    received: datetime                                       # the latest ctime of what was read, naive UTC
    refused: dict[str, str] = field(default_factory=dict)    # path in the submission -> why it was not copied
    over_limit: str | None = None                            # why nothing was copied


def account(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def uid_of(student: str) -> int | None:
    try:
        return pwd.getpwnam(student).pw_uid
    except KeyError:
        return None


def candidates(inbound: int, lesson: str, students: str, collector: int) -> tuple[list[Candidate], list[str]]:
    """The folders of `lesson` in the inbound folder open as `inbound`, for the students matching the
    glob `students`; and each one left out, named with the reason. A folder counts only when its
    owner is the student it names, or the collecting account `collector` (a one-account exchange)."""
    found, skipped = [], []
    with os.scandir(inbound) as listing:
        for entry in listing:
            if not fnmatchcase(entry.name, f"{students}+{lesson}+*"):  # nbgrader's own pattern
                continue
            candidate, why = read_entry(entry, lesson, collector)
            if candidate is not None:
                found.append(candidate)
            else:
                skipped.append(f"{entry.name!r}: {why}")
    return found, skipped


def read_entry(entry: os.DirEntry, lesson: str, collector: int) -> tuple[Candidate | None, str]:
    """`entry` as a submission folder of `lesson`, or None and why it is not one."""
    parts = entry.name.rsplit("+", 3)
    if len(parts) < 3 or parts[1] != lesson:
        return None, "not named <student>+<lesson>+<time>+<random>"
    student = parts[0]
    if not STUDENT_ID.match(student):
        return None, "not a usable student id"
    try:
        parse_utc(parts[2])
    except Exception:  # the student's text in dateutil, which raises several kinds
        return None, "its name holds no time nbgrader can read"
    try:
        info = entry.stat(follow_symlinks=False)
    except OSError as exc:  # removed since it was listed
        return None, f"cannot be read ({exc.strerror})"
    if not stat.S_ISDIR(info.st_mode):
        return None, "a symbolic link, not a folder" if stat.S_ISLNK(info.st_mode) else "not a folder"
    if info.st_uid not in (uid_of(student), collector):
        return None, f"in {student}'s name but belongs to {account(info.st_uid)}"
    return Candidate(entry.name, student, info.st_uid, info.st_ctime), ""


def copy_folder(folder: int, owner: int, dest: Path) -> Copied:
    """Copy the submission folder open as `folder` into the empty folder `dest`: regular files with
    one name each, owned by `owner`, within the caps; refuse anything else by its path. Over a cap,
    `dest` is left empty and `over_limit` says which."""
    walk, over_limit = Walk(owner), None
    try:
        walk.folder(folder, dest, "", 0)
    except OverLimit as exc:
        remove_tree(dest)
        dest.mkdir()
        walk.refused, over_limit = {}, str(exc)
    return Copied(utc(walk.latest), walk.refused, over_limit)


def utc(timestamp: float) -> datetime:
    """A file time as naive UTC, like nbgrader's timestamps."""
    return datetime.fromtimestamp(timestamp, timezone.utc).replace(tzinfo=None)


class Walk:
    """One pass over a submission folder: what was copied, refused, and when it last changed."""

    def __init__(self, owner: int):
        self.owner = owner
        self.latest = 0.0
        self.entries = self.bytes = 0
        self.refused: dict[str, str] = {}

    def folder(self, fd: int, dest: Path, path: str, depth: int) -> None:
        with os.scandir(fd) as listing:
            for entry in listing:
                self.entries += 1
                if self.entries > MAX_ENTRIES:
                    raise OverLimit(f"more than {MAX_ENTRIES} files and folders")
                self.entry(fd, entry, dest / entry.name, path + entry.name, depth)
        self.seen(os.fstat(fd))  # after listing: an entry added meanwhile moved it

    def entry(self, parent: int, entry: os.DirEntry, dest: Path, path: str, depth: int) -> None:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError as exc:  # a folder the student left without search permission
            self.refused[path] = f"cannot be read ({exc.strerror})"
            return
        self.seen(info)
        if stat.S_ISDIR(info.st_mode):
            self.subfolder(parent, entry.name, dest, path, depth)
        elif stat.S_ISREG(info.st_mode):
            self.file(parent, entry.name, dest, path)
        else:  # never opened: a pipe could block, a device could act
            self.refused[path] = not_a_file(info.st_mode)

    def subfolder(self, parent: int, name: str, dest: Path, path: str, depth: int) -> None:
        if depth + 1 > MAX_DEPTH:
            self.refused[path] = f"deeper than {MAX_DEPTH} folders"
            return
        try:
            fd = os.open(name, DIR_FLAGS, dir_fd=parent)  # a link put in its place since: ELOOP
        except OSError as exc:
            self.refused[path] = f"cannot be read ({exc.strerror})"
            return
        try:
            why = self.foreign(os.fstat(fd))  # a folder another account made in it
            if why:
                self.refused[path] = why
                return
            dest.mkdir()
            self.folder(fd, dest, path + "/", depth + 1)
        finally:
            os.close(fd)

    def file(self, parent: int, name: str, dest: Path, path: str) -> None:
        try:
            fd = os.open(name, FILE_FLAGS, dir_fd=parent)  # O_NONBLOCK: a pipe put in its place since cannot block
        except OSError as exc:
            self.refused[path] = f"cannot be read ({exc.strerror})"
            return
        try:
            info = os.fstat(fd)
            why = self.not_own_file(info)
            if why:
                self.refused[path] = why
                return
            if self.bytes + info.st_size > MAX_BYTES:
                raise OverLimit(TOO_BIG)
            with open(dest, "xb") as out:
                while chunk := os.read(fd, CHUNK):
                    self.bytes += len(chunk)
                    if self.bytes > MAX_BYTES:  # it grew while being read
                        raise OverLimit(TOO_BIG)
                    out.write(chunk)
            self.seen(os.fstat(fd))  # after reading: a write during the copy moves it
        finally:
            os.close(fd)

    def not_own_file(self, info: os.stat_result) -> str | None:
        """Why an opened entry is not copied, or None. Another name of the same file (a hard link)
        can be anyone's file that the student could read, and can change without this folder changing."""
        if not stat.S_ISREG(info.st_mode):  # replaced since it was listed
            return not_a_file(info.st_mode)
        if info.st_nlink > 1:
            return f"a hard link ({info.st_nlink} names for one file): only a file of the submission's own is collected"
        return self.foreign(info)

    def foreign(self, info: os.stat_result) -> str | None:
        """Why an entry that is not the submission owner's is refused, or None."""
        return None if info.st_uid == self.owner else f"belongs to {account(info.st_uid)}, not to the submitter"

    def seen(self, info: os.stat_result) -> None:
        self.latest = max(self.latest, info.st_ctime)
