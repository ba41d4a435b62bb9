"""The sandboxes' working folders on the host: one private folder per account under the temporary
folder, a locked folder per sandbox inside it, and the removal of those a killed grader left.
"""
from __future__ import annotations

import fcntl
import functools
import os
import stat
import tempfile
import time
from pathlib import Path

from . import safefs
from .bubblewrap import SandboxUnavailable

RUNS_PREFIX = "jaxcourse-runs-"


def _own_runs_folders(tmp: Path) -> list[Path]:
    """This account's runs folders in `tmp`: real folders (not links) that it owns, mode 0700.
    Another account may create anything under these names, and none of it passes."""
    uid, found = os.geteuid(), []
    with os.scandir(tmp) as entries:
        for entry in entries:
            if entry.name.startswith(f"{RUNS_PREFIX}{uid}-"):
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode) and info.st_uid == uid and stat.S_IMODE(info.st_mode) == 0o700:
                    found.append(Path(entry.path))
    return sorted(found)


@functools.cache  # once per process: every sandbox of a grader shares it
def runs_folder() -> Path:
    """Where this account's sandboxes keep their working folders (and the kernels their sockets):
    a folder of its own in the temporary folder, under a random name made with mkdtemp (0700),
    and reused by the next grader, which removes the folders a killed one left."""
    tmp = Path(tempfile.gettempdir())
    mode = tmp.stat().st_mode
    if mode & 0o022 and not mode & stat.S_ISVTX:  # others could rename our folder away and put theirs there
        raise SandboxUnavailable(f"the temporary folder {tmp} is writable by other accounts and not sticky, so they "
                                 "could replace the grader's run folders there: set TMPDIR to a folder of your own")
    own = _own_runs_folders(tmp)
    return own[0] if own else Path(tempfile.mkdtemp(prefix=f"{RUNS_PREFIX}{os.geteuid()}-", dir=tmp))


def locked_run_folder() -> tuple[Path, int]:
    """A new working folder, and an open lock that marks it in use for as long as this process lives."""
    runs = runs_folder()
    remove_abandoned_runs()
    workdir = Path(tempfile.mkdtemp(prefix="run-", dir=runs))
    lock = os.open(workdir / ".lock-taking", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    # Named .lock only once held: a grader removing abandoned folders could otherwise take the
    # lock first, find it free, and remove this folder as it is being filled.
    os.rename(workdir / ".lock-taking", workdir / ".lock")
    return workdir, lock


@functools.cache  # once per process: the folders of graders that were killed before they could clean up
def remove_abandoned_runs(grace_seconds: float = 60.0) -> int:
    """Remove the unlocked run folders in every runs folder of this account (two graders that start
    together on a fresh machine may each make one). Nothing that is not this account's own folder is
    followed or removed."""
    removed, uid = 0, os.geteuid()
    for workdir in (run for runs in _own_runs_folders(runs_folder().parent) for run in runs.glob("run-*")):
        try:
            info = workdir.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            continue
        try:
            lock = os.open(workdir / ".lock", os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:  # a folder made a moment ago, or by a grader killed at once
            if time.time() - info.st_mtime <= grace_seconds:
                continue
        except OSError:
            continue
        else:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # a live grader holds it
                continue
            finally:
                os.close(lock)
        safefs.remove_tree(workdir)
        removed += 1
    return removed

