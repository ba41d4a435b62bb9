"""The course folder: where lessons, releases, submissions and grades live."""
from __future__ import annotations

import difflib
import json
import os
import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from traitlets.config import Config

from .run.platforms import NAMES, TABLE

COURSE_ID = "jax-course"
PLATFORMS = NAMES  # the platform table's names
SETTINGS_FILE = "course.toml"
PINS_FILE = "requirements-cpu.txt"   # a pip freeze of the environment the grader runs
# GitHub's rules for owner and repository names, and a branch name without surprises in a URL.
GITHUB_REPOSITORY = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}/(?!\.\.?$)[A-Za-z0-9._-]{1,100}$")
BRANCH = re.compile(r"^(?!-)(?!.*\.\.)[A-Za-z0-9._/-]{1,200}(?<![/.])$")
PLACEHOLDERS = {"owner/repo", "owner/name", "user/repo", "your-org/your-repo"}

NBGRADER_CONFIG_FILE = """\
# nbgrader reads this file; the settings live in jaxcourse.course.
from jaxcourse.course import configure_nbgrader

configure_nbgrader(get_config())  # noqa: F821
"""


STUDENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$")  # also a folder name under submitted/


class CourseError(Exception):
    """A problem with the course folder that makes grading untrustworthy."""


def canonical(name: str) -> str:
    """A distribution name as PEP 503 compares them (extras dropped)."""
    return re.sub(r"[-_.]+", "-", name.split("[", 1)[0]).lower()


def read_pins(path: Path) -> dict[str, str]:
    """Canonical name -> version, from a pip freeze such as requirements-cpu.txt (empty if absent)."""
    pins = {}
    for line in path.read_text().splitlines() if path.is_file() else []:
        name, sep, version = line.split("#", 1)[0].strip().partition("==")
        if sep:
            pins[canonical(name)] = version.strip()
    return pins


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
        "jaxcourse.authoring.lessonfile.ClearOutputs",
        "jaxcourse.authoring.release.InsertRecordedOutputs",
        "jaxcourse.authoring.release.AddColabCells",
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
    # nbgrader's own grading runs student code unsandboxed and cannot score hidden checks: it
    # refuses (also the formgrader's button); feedback is made only from notebooks without hidden tests.
    c.Autograde.exporter_class = "jaxcourse.grading.seams.RefuseAutograde"
    # `nbgrader collect` (and the formgrader's) copies each submission without following anything the
    # student made, and takes its time from the exchange, not the student.
    c.ExchangeFactory.collect = "jaxcourse.grading.exchange.TimedCollect"
    c.GenerateFeedback.preprocessors = ["jaxcourse.grading.seams.RequireHiddenTestsRemoved", "nbgrader.preprocessors.GetGrades",
                                        "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor"]
    return c


@dataclass(frozen=True)
class Settings:
    """The course's own settings, from course.toml at the course root (all optional)."""
    title: str = "The JAX course"
    repository: str = ""        # "owner/name" on GitHub that the published course is pushed to
    branch: str = "main"
    phases: dict[int, str] = field(default_factory=dict)   # phase number -> title
    demo: tuple[str, ...] = ()  # the lessons `jaxcourse demo` grades when none is named (all when empty)

    @classmethod
    def read(cls, path: Path) -> "Settings":
        if not path.is_file():
            return cls()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
            publish, demo = data.get("publish", {}), data.get("demo", {}).get("lessons", [])
            if not isinstance(demo, list) or not all(isinstance(lesson, str) for lesson in demo):
                raise CourseError(f"{path}: [demo] lessons must be a list of lesson ids, not {demo!r}")
            settings = cls(str(data.get("course", {}).get("title", cls.title)).strip(),
                           str(publish.get("repository", "")).strip(), str(publish.get("branch", "main")).strip(),
                           {int(number): str(title) for number, title in data.get("phases", {}).items()},
                           tuple(demo))
        except (tomllib.TOMLDecodeError, AttributeError, ValueError) as exc:
            raise CourseError(f"{path}: {exc}") from None
        if settings.repository and (settings.repository.lower() in PLACEHOLDERS
                                    or not GITHUB_REPOSITORY.match(settings.repository)):
            raise CourseError(f"{path}: [publish] repository must be a real GitHub \"owner/name\", "
                              f"not {settings.repository!r}")
        if not BRANCH.match(settings.branch):
            raise CourseError(f"{path}: [publish] branch {settings.branch!r} is not a usable branch name")
        return settings

    def colab_url(self, path: str) -> str | None:
        """Colab's address for a notebook at `path` in the published repository, if there is one."""
        if not self.repository:
            return None
        return f"https://colab.research.google.com/github/{self.repository}/blob/{self.branch}/{path}"


@dataclass(frozen=True)
class LessonInfo:
    """What a lesson declares about itself in its notebook's `metadata.jaxcourse`."""
    lesson: str
    chapter: int                  # its place in the course; README tables and listings follow it
    phase: int
    packages: dict[str, str]      # import name -> pip name, for the Colab setup cell
    platforms: tuple[str, ...]    # where it can be graded
    devices: int                  # devices its tests need; on cpu the grader provides them

    FIELDS = ("chapter", "phase", "packages", "platforms", "devices")

    @classmethod
    def read(cls, path: Path) -> "LessonInfo":
        """The lesson's declaration, every field checked: a CourseError names the lesson and the field."""
        lesson = path.stem

        def bad(name: str, why: str) -> CourseError:
            return CourseError(f"lesson {lesson}: metadata.jaxcourse.{name} {why} ({path}; see docs/authoring.md)")

        try:
            nb = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise CourseError(f"lesson {lesson}: {path} is not a readable notebook ({exc})") from None
        meta = nb.get("metadata", {}).get("jaxcourse") if isinstance(nb, dict) and isinstance(nb.get("metadata"), dict) else None
        if not isinstance(meta, dict):
            raise CourseError(f"lesson {lesson}: {path} has no metadata.jaxcourse block (see docs/authoring.md)")
        unknown = sorted(set(meta) - set(cls.FIELDS))
        if unknown:
            raise bad(unknown[0], f"is not a field; the fields are {', '.join(cls.FIELDS)}")

        def whole(name: str, default: int | None = None) -> int:
            value = meta.get(name, default)
            if value is None:
                raise bad(name, "is missing")
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise bad(name, f"must be a whole number of at least 1, not {value!r:.60}")
            return value

        chapter, phase, devices = whole("chapter"), whole("phase"), whole("devices", 1)
        packages = meta.get("packages", {})
        if not isinstance(packages, dict) or not all(isinstance(v, str) and v for v in packages.values()):
            raise bad("packages", f"must map each import name to its pip name, not {packages!r:.60}")
        platforms = meta.get("platforms", list(PLATFORMS))
        if (not isinstance(platforms, list) or not platforms or not all(p in PLATFORMS for p in platforms)
                or len(set(platforms)) != len(platforms)):
            raise bad("platforms", f"must list distinct platforms among {', '.join(PLATFORMS)}, not {platforms!r:.60}")
        one_device = [p for p in platforms if not TABLE[p].virtual_devices]
        if devices > 1 and one_device:
            raise bad("platforms", f"lists {', '.join(one_device)}, where a grading worker has one device, "
                                   f"and the lesson needs {devices} (metadata.jaxcourse.devices)")
        return cls(lesson, chapter, phase, dict(packages), tuple(platforms), devices)

    def refuse(self, platform: str) -> None:
        """Raise CourseError when this lesson cannot be graded on `platform`."""
        if platform not in self.platforms:
            need = f"; its tests need {self.devices} devices and a {platform} grading worker has one" \
                if self.devices > 1 and not TABLE[platform].virtual_devices else ""
            raise CourseError(f"{self.lesson} can be graded on {', '.join(self.platforms)} only{need}: "
                              f"use --platform {self.platforms[0]}. Nothing was graded.")


def lesson_title(course: Course, lesson: str) -> str:
    """The notebook's first level-one heading."""
    nb = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    return next((line.lstrip("# ").strip() for cell in nb.cells if cell.cell_type == "markdown"
                 for line in cell.source.splitlines() if line.startswith("# ")), lesson)


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
        """The gradebook's address for nbgrader, which runs `alembic` from this environment when
        it creates one: reaching it puts that environment on PATH, activated or not."""
        tools = os.path.dirname(sys.executable)
        if tools not in os.environ.get("PATH", "").split(os.pathsep):
            os.environ["PATH"] = tools + os.pathsep + os.environ.get("PATH", "")
        return f"sqlite:///{self.gradebook}"

    def settings(self) -> Settings:
        return Settings.read(self.root / SETTINGS_FILE)

    def pins(self) -> dict[str, str]:
        """The versions the grader runs: the course's requirements-cpu.txt, else the one beside this
        package (a scratch course copied from the repository has none of its own)."""
        for path in (self.root / PINS_FILE, Path(__file__).resolve().parents[1] / PINS_FILE):
            if path.is_file():
                return read_pins(path)
        return {}

    def submission_folders(self, lesson: str) -> tuple[list[Path], list[str]]:
        """Each student's submitted/<student>/LESSON/ folder, and why each other one there is not used."""
        folders, skipped = [], []
        if not self.submitted.is_dir():
            return folders, skipped
        for student_dir in sorted(self.submitted.iterdir()):
            folder = student_dir / lesson
            if not folder.is_dir():
                continue
            if not STUDENT_ID.match(student_dir.name) or student_dir.is_symlink() or folder.is_symlink():
                skipped.append(f"{student_dir.name!r}: not a usable student id or folder")
            else:
                folders.append(folder)
        return folders, skipped

    def lesson_ids(self) -> list[str]:
        """Every folder under source/ that holds its own notebook, by name."""
        if not self.source.is_dir():
            return []
        return sorted(d.name for d in self.source.iterdir() if (d / f"{d.name}.ipynb").is_file())

    def lessons(self) -> list[str]:
        """Every lesson folder under source/ that holds its own notebook, in course order. Each
        lesson's metadata is read and checked here: a bad one is a CourseError naming it."""
        return sorted(self.lesson_ids(), key=lambda lesson: (self.info(lesson).chapter, lesson))

    def info(self, lesson: str) -> "LessonInfo":
        return LessonInfo.read(self.lesson_notebook(lesson))

    def lesson_notebook(self, lesson: str) -> Path:
        path = self.source / lesson / f"{lesson}.ipynb"
        if not path.is_file():
            raise self.unknown_lesson(lesson)
        return path

    def unknown_lesson(self, lesson: str) -> CourseError:
        """The one error every command gives for a lesson id that is not in source/, with the likeliest id."""
        known = self.lesson_ids()
        close = difflib.get_close_matches(lesson, known, n=1)
        hint = (f"did you mean {close[0]!r}?" if close else "there is none there (is --course-dir the course folder?)"
                if not known else f"the lessons are {', '.join(known[:6])}{', …' if len(known) > 6 else ''}")
        return CourseError(f"no lesson {lesson!r} in {self.source}: {hint}")

    def select(self, lessons: list[str] | None) -> list[str]:
        """The lessons named (all of them when none is), each one's metadata checked."""
        if not lessons:
            known = self.lessons()
            if not known:
                raise CourseError(f"no lessons found under {self.source}")
            return known
        for lesson in lessons:
            self.info(lesson)
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
