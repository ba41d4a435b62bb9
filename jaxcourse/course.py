"""The course folder: where lessons, releases, submissions and grades live."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from traitlets.config import Config

COURSE_ID = "jax-course"
# The GitHub repository that Open-in-Colab badges point at: the one place to configure it.
COLAB_REPOSITORY = "OWNER/REPO"
PLATFORMS = ("cpu", "gpu", "tpu")

NBGRADER_CONFIG_FILE = """\
# nbgrader reads this file; the settings live in jaxcourse.course.
from jaxcourse.course import configure_nbgrader

configure_nbgrader(get_config())  # noqa: F821
"""


class CourseError(Exception):
    """A problem with the course folder that makes grading untrustworthy."""


def configure_nbgrader(c: Config) -> Config:
    """Apply the course's nbgrader settings to a traitlets Config."""
    c.CourseDirectory.course_id = COURSE_ID
    c.CourseDirectory.db_url = "sqlite:///gradebook.db"
    # Every output is cleared; figure and example cells get theirs from source/<lesson>/recorded-outputs.json.
    c.GenerateAssignment.preprocessors = [
        "nbgrader.preprocessors.IncludeHeaderFooter",
        "nbgrader.preprocessors.InstantiateTests",
        "nbgrader.preprocessors.LockCells",
        "nbgrader.preprocessors.ClearSolutions",
        "jaxcourse.release.ClearOutputs",
        "jaxcourse.release.InsertRecordedOutputs",
        "jaxcourse.release.AddColabCells",
        "nbgrader.preprocessors.CheckCellMetadata",
        "nbgrader.preprocessors.ComputeChecksums",
        "nbgrader.preprocessors.SaveCells",
        "nbgrader.preprocessors.ClearHiddenTests",
        "nbgrader.preprocessors.ClearMarkScheme",
        "nbgrader.preprocessors.ComputeChecksums",
        "nbgrader.preprocessors.CheckCellMetadata",
    ]
    # Mutants are wrong answers kept for the tests, and downloads/ ships as zips; neither is released.
    c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "mutants", "downloads",
                                "recorded-outputs.json"]
    # Re-add test cells a student deleted, so a deletion cannot dodge a check.
    c.OverwriteCells.add_missing_cells = True
    return c


@dataclass(frozen=True)
class LessonInfo:
    """What a lesson declares about itself in its notebook's `metadata.jaxcourse`."""
    lesson: str
    chapter: int                  # its place in the course; README tables and listings follow it
    phase: int
    packages: dict[str, str]      # import name -> pip name, for the Colab setup cell
    platforms: tuple[str, ...]    # where it can be graded
    devices: int                  # devices its tests need; on cpu the grader provides them

    @classmethod
    def read(cls, path: Path) -> "LessonInfo":
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("jaxcourse", {})
        lesson = path.stem
        try:
            info = cls(lesson, int(meta["chapter"]), int(meta["phase"]), dict(meta.get("packages", {})),
                       tuple(meta.get("platforms", PLATFORMS)), int(meta.get("devices", 1)))
        except (KeyError, TypeError, ValueError):
            raise CourseError(f"{path}: metadata.jaxcourse needs chapter, phase, packages, platforms and devices "
                              "(see docs/authoring.md)") from None
        if not set(info.platforms) <= set(PLATFORMS) or info.devices < 1:
            raise CourseError(f"{path}: platforms must be among {PLATFORMS} and devices at least 1")
        return info

    def refuse(self, platform: str) -> None:
        """Raise CourseError when this lesson cannot be graded on `platform`."""
        if platform not in self.platforms:
            need = f"; its tests need {self.devices} devices and a {platform} grading worker has one" \
                if self.devices > 1 and platform != "cpu" else ""
            raise CourseError(f"{self.lesson} can be graded on {', '.join(self.platforms)} only{need}: "
                              f"use --platform {self.platforms[0]}. Nothing was graded.")


@dataclass(frozen=True)
class Course:
    root: Path

    @classmethod
    def at(cls, course_dir: str | os.PathLike | None) -> "Course":
        return cls(Path(course_dir or ".").resolve())

    @property
    def source(self) -> Path:
        return self.root / "source"

    @property
    def release(self) -> Path:
        return self.root / "release"

    @property
    def submitted(self) -> Path:
        return self.root / "submitted"

    @property
    def autograded(self) -> Path:
        return self.root / "autograded"

    @property
    def feedback(self) -> Path:
        return self.root / "feedback"

    @property
    def grades(self) -> Path:
        return self.root / "grades"

    @property
    def state(self) -> Path:
        """Grader-private files (expected values, caches); never mounted into a sandbox."""
        return self.root / ".jaxcourse"

    @property
    def gradebook(self) -> Path:
        return self.root / "gradebook.db"

    @property
    def db_url(self) -> str:
        return f"sqlite:///{self.gradebook}"

    def lessons(self) -> list[str]:
        """Every lesson folder under source/ that holds its own notebook, in course order."""
        if not self.source.is_dir():
            return []
        def place(lesson: str) -> tuple[int, str]:
            try:
                return self.info(lesson).chapter, lesson
            except (CourseError, ValueError):  # listed last; using it reports what is wrong
                return 10**6, lesson

        found = [d.name for d in self.source.iterdir() if (d / f"{d.name}.ipynb").is_file()]
        return sorted(found, key=place)

    def info(self, lesson: str) -> "LessonInfo":
        return LessonInfo.read(self.lesson_notebook(lesson))

    def lesson_notebook(self, lesson: str) -> Path:
        path = self.source / lesson / f"{lesson}.ipynb"
        if not path.is_file():
            raise CourseError(f"no source lesson {lesson!r}: {path} does not exist")
        return path

    def select(self, lessons: list[str] | None) -> list[str]:
        known = self.lessons()
        if not lessons:
            if not known:
                raise CourseError(f"no lessons found under {self.source}")
            return known
        for lesson in lessons:
            self.lesson_notebook(lesson)
        return list(lessons)

    def nbgrader_config(self) -> Config:
        c = configure_nbgrader(Config())
        c.CourseDirectory.root = str(self.root)
        c.CourseDirectory.db_url = self.db_url
        return c

    def ensure_config_file(self) -> None:
        """Give a scratch course folder the same nbgrader_config.py as the repository."""
        path = self.root / "nbgrader_config.py"
        if not path.exists():
            self.root.mkdir(parents=True, exist_ok=True)
            path.write_text(NBGRADER_CONFIG_FILE)
