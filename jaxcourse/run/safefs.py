"""Read, measure and remove what a sandbox leaves behind, without trusting any of it.

No symlink is followed, nothing recurses (a tree may be deeper than Python's stack or
PATH_MAX), and every read is bounded in size. Files the grader keeps are written whole or
not at all (atomic_write).
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

MAX_JSON_DEPTH = 100  # a notebook nests about 8 levels; each level costs the grader's copies stack frames
DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
FILE_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC


class NotRegular(OSError):
    """The path is a link, a device, a pipe or a folder, or is larger than allowed."""


class TooLarge(NotRegular):
    """A regular file over its size cap; `size` is what it held when it was looked at."""

    def __init__(self, message: str, size: int):
        super().__init__(message)
        self.size = size


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of `path` if it is a regular file of at most `limit` bytes, else NotRegular."""
    fd = os.open(path, FILE_FLAGS)  # a symlink fails here (ELOOP); a FIFO does not block
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegular(f"{path.name} is not a regular file")
        if info.st_size > limit:
            raise TooLarge(f"{path.name} is larger than {limit} bytes", info.st_size)
        chunks, total = [], 0
        while chunk := os.read(fd, min(1 << 20, limit + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise TooLarge(f"{path.name} grew past {limit} bytes", total)
        return b"".join(chunks)
    finally:
        os.close(fd)


def list_folder(folder: Path, max_entries: int) -> tuple[dict[str, str], bool]:
    """The entries of `folder` itself (never a subfolder), at most `max_entries`, as name ->
    "file", "dir", "link" or "other", without following a link; and whether more were left unread."""
    fd = os.open(folder, DIR_FLAGS)
    kinds: dict[str, str] = {}
    try:
        with os.scandir(fd) as listing:
            for entry in listing:
                if len(kinds) == max_entries:
                    return kinds, True
                kinds[entry.name] = _kind(entry.stat(follow_symlinks=False).st_mode)
    finally:
        os.close(fd)
    return kinds, False


def kind_of(path: Path) -> str | None:
    """What `path` itself is, as list_folder names it, without following a link; None if absent."""
    try:
        return _kind(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None


def _kind(mode: int) -> str:
    return ("file" if stat.S_ISREG(mode) else "dir" if stat.S_ISDIR(mode)
            else "link" if stat.S_ISLNK(mode) else "other")


def deeper_than(data: object, limit: int) -> bool:
    """Whether JSON data nests more than `limit` levels, measured without recursion."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def tree_usage(root: Path, max_entries: int, max_depth: int = 32) -> tuple[int, int]:
    """(bytes of regular files, entries) under `root`; entries past either cap count as max_entries + 1."""
    over = (0, max_entries + 1)
    try:
        stack = [(os.open(root, DIR_FLAGS), 0)]
    except OSError:
        return 0, 0
    total, entries = 0, 0
    try:
        while stack:
            fd, depth = stack.pop()
            try:
                with os.scandir(fd) as listing:
                    for entry in listing:
                        entries += 1
                        if entries > max_entries:
                            return over
                        info = entry.stat(follow_symlinks=False)
                        if stat.S_ISDIR(info.st_mode):
                            if depth + 1 > max_depth:
                                return over
                            stack.append((os.open(entry.name, DIR_FLAGS, dir_fd=fd), depth + 1))
                        elif stat.S_ISREG(info.st_mode):
                            total += info.st_size
            except OSError:
                pass
            finally:
                os.close(fd)
    finally:
        for fd, _ in stack:
            os.close(fd)
    return total, entries


def remove_tree(root: Path) -> None:
    """Delete `root` and everything below it, at any depth, holding one folder open at a time."""
    try:
        fd = os.open(root, DIR_FLAGS)
    except FileNotFoundError:
        return
    except OSError:  # a file or a symlink where a folder was expected: remove the entry itself
        os.unlink(root)
        return
    names: list[str] = []  # the path from root down to the folder `fd` is open on
    try:
        while True:
            child = None
            with os.scandir(fd) as listing:
                for entry in listing:
                    if entry.is_dir(follow_symlinks=False):
                        child = entry.name
                        break
                    os.unlink(entry.name, dir_fd=fd)
            if child is not None:
                os.chmod(child, 0o700, dir_fd=fd)  # a folder the sandbox made unreadable
                inner = os.open(child, DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = inner
                names.append(child)
                continue
            if not names:
                break
            parent = os.open("..", DIR_FLAGS, dir_fd=fd)
            os.close(fd)
            fd = parent
            os.rmdir(names.pop(), dir_fd=fd)
    finally:
        os.close(fd)
    os.rmdir(root)


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
