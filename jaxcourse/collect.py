"""Find submissions in nbgrader's layout: submitted/<student>/<lesson>/<notebook>.ipynb."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .course import Course

STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$")


@dataclass
class Submission:
    student: str
    lesson: str
    folder: Path
    notebooks: dict[str, Path] = field(default_factory=dict)  # expected name -> file, when present
    extra: list[str] = field(default_factory=list)           # notebooks the lesson does not have

    def content_hash(self) -> str:
        """Hash of every submitted notebook's bytes, so a resubmission is noticed."""
        digest = hashlib.sha256()
        for path in sorted(self.folder.rglob("*")):
            if path.is_file() and not path.is_symlink():
                digest.update(str(path.relative_to(self.folder)).encode())
                digest.update(b"\0")
                with path.open("rb") as handle:
                    for block in iter(lambda: handle.read(1 << 20), b""):
                        digest.update(block)
        return digest.hexdigest()


def collect(course: Course, lesson: str, notebook_names: list[str]) -> tuple[list[Submission], list[str]]:
    """Submissions for a lesson, and a list of skipped folders with reasons."""
    submissions, skipped = [], []
    if not course.submitted.is_dir():
        return submissions, skipped
    for student_dir in sorted(course.submitted.iterdir()):
        folder = student_dir / lesson
        if not folder.is_dir():
            continue
        if not STUDENT_ID.match(student_dir.name) or student_dir.is_symlink() or folder.is_symlink():
            skipped.append(f"{student_dir.name!r}: not a usable student id or folder")
            continue
        found = {p.stem: p for p in folder.glob("*.ipynb") if p.is_file() and not p.is_symlink()}
        submission = Submission(student_dir.name, lesson, folder)
        submission.notebooks = {name: found[name] for name in notebook_names if name in found}
        submission.extra = sorted(f"{stem}.ipynb" for stem in found if stem not in notebook_names)
        submissions.append(submission)
    return submissions, skipped
