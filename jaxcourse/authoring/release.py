"""Build student releases from source/ with nbgrader, then prove nothing secret leaked."""
from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import nbformat
from nbconvert.exporters.exporter import ResourcesDict
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import NbGraderPreprocessor

from ..course import PINS_FILE, Course, CourseError, Settings, canonical, lesson_title
from ..grading.record import generate
from .artefacts import write_artefacts, write_resource_zips
from .lessonfile import HIDDEN_REGION, LEAK_MARKERS, SOLUTION_REGION, insert_recorded

def lesson_folder(resources: ResourcesDict) -> Path:
    """The source folder of the notebook being converted, as nbconvert recorded where it read it.

    Not `config.CourseDirectory.root`: nbgrader's own commands and the formgrader leave it unset
    (a traitlets LazyConfigValue), and the course root is that folder's grandparent (source/<lesson>).
    """
    return Path(resources["metadata"]["path"]).resolve()


class InsertRecordedOutputs(NbGraderPreprocessor):
    """Give the release's figure and example cells their recorded outputs."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict):
        return insert_recorded(nb, lesson_folder(resources)), resources


# On Colab, the setup cell installs the grader's versions of these; other packages it installs only
# where missing, since any version serves and Colab's numpy is imported before the cell runs.
GRADED_PACKAGES = ("jax", "jaxlib", "flax", "optax", "orbax-checkpoint")

COLAB_SETUP = """\
# Google Colab only: give this runtime the versions of the JAX packages that the course is tested and
# graded with, and install anything else the lesson imports that is missing. Elsewhere it does nothing.
import sys

if "google.colab" in sys.modules:
    import importlib.metadata as metadata
    import re
    import subprocess

    graded_with = {graded_with}
    also_needed = {also_needed}

    def installed():
        return {{re.sub(r"[-_.]+", "-", d.metadata["Name"]).lower(): d.version
                for d in metadata.distributions() if d.metadata["Name"]}}

    before = installed()
    wanted = [f"{{name}}=={{version}}" for name, version in graded_with.items() if before.get(name) != version]
    wanted += [name for name in also_needed if name not in before]
    if wanted:
        print("Installing", *wanted)
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", *wanted], check=True)
    after = installed()
    changed = sorted(name for name in after if before.get(name) != after[name])
    for name in changed:
        print(f"  {{name}}: {{before.get(name, 'not installed')}} -> {{after[name]}}")
    print("This runtime has", ", ".join(f"{{name}} {{after[name]}}" for name in graded_with), "as the grader does.")
    plugins = [f"{{name}} {{version}}" for name, version in after.items() if name.startswith(("jax-cuda", "libtpu"))]
    if "jax" in changed and plugins:
        print("Colab's", ", ".join(plugins), "was built for Colab's own jax; the lessons run on the CPU, so JAX skips it.")
    loaded = {{re.sub(r"[-_.]+", "-", d).lower() for module, dists in metadata.packages_distributions().items()
              if module in sys.modules for d in dists}}
    if loaded & set(changed):
        raise RuntimeError(f"{{', '.join(sorted(loaded & set(changed)))}} had already been imported, so the new "
                           "versions need a fresh start: choose Runtime > Restart session, then run this cell again.")"""


def colab_setup(packages: dict[str, str], pins: dict[str, str]) -> str:
    """The setup cell for a lesson importing `packages` (module -> pip name), given the grader's pins."""
    names = {canonical(name) for name in packages.values()}
    names |= {"jaxlib"} if "jax" in names else set()
    graded = sorted(name for name in names if name in GRADED_PACKAGES)
    unpinned = [name for name in graded if name not in pins]
    if unpinned:
        raise CourseError(f"{PINS_FILE} pins no version of {', '.join(unpinned)}, which the Colab setup cell installs")
    return COLAB_SETUP.format(graded_with=repr({name: pins[name] for name in graded}),
                              also_needed=repr(sorted(names - set(graded))))


def release_path(lesson: str) -> str:
    """Where a lesson's release notebook lives, in the course and in the published tree."""
    return f"release/{lesson}/{lesson}.ipynb"


def colab_badge(settings: Settings, lesson: str) -> str | None:
    """The Open-in-Colab badge of a lesson, or None while the course names no repository."""
    url = settings.colab_url(release_path(lesson))
    return url and f"[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]({url})"


class AddColabCells(NbGraderPreprocessor):
    """Give each release the Colab setup cell, and an Open-in-Colab badge when course.toml names the
    repository the course is published to."""

    def preprocess(self, nb: NotebookNode, resources: ResourcesDict):
        lesson = resources["nbgrader"]["assignment"]
        course = Course.at(lesson_folder(resources).parents[1])
        setup = colab_setup(nb.metadata.get("jaxcourse", {}).get("packages", {}), course.pins())
        badge = colab_badge(course.settings(), lesson)
        cells = [nbformat.v4.new_code_cell(setup, id="colab-setup")]
        if badge:
            cells.insert(0, nbformat.v4.new_markdown_cell(badge, id="colab-badge"))
        nb.cells[1:1] = cells
        return nb, resources


def leaks(source_nb: NotebookNode, release_nb: NotebookNode) -> list[str]:
    """Everything in a release notebook that a student must not see."""
    problems = []
    released = {cell.get("id"): cell for cell in release_nb.cells}
    for cell in release_nb.cells:
        text = cell.source
        for marker in LEAK_MARKERS:
            if marker in text:
                problems.append(f"cell {cell.get('id')}: contains {marker!r}")
        nbgrader = cell.metadata.get("nbgrader", {})
        if cell.cell_type == "code" and (nbgrader.get("solution") or nbgrader.get("grade")) and cell.outputs:
            problems.append(f"cell {cell.get('id')}: a solution or test cell kept its outputs")
    for cell in source_nb.cells:
        twin = released.get(cell.get("id"))
        if twin is None:
            continue
        outside = SOLUTION_REGION.sub("", HIDDEN_REGION.sub("", cell.source))
        secret_lines = {
            line.strip()
            for region in (SOLUTION_REGION, HIDDEN_REGION)
            for body in region.findall(cell.source)
            for line in body.splitlines()
        } - {line.strip() for line in outside.splitlines()} - {""}
        for line in twin.source.splitlines():
            if line.strip() in secret_lines:
                problems.append(f"cell {cell.get('id')}: release contains hidden line {line.strip()!r}")
    return problems


TABLE_START, TABLE_END = "<!-- lessons:start -->", "<!-- lessons:end -->"


def open_link(settings: Settings, lesson: str) -> str:
    """A Colab badge where the course has a published repository, else the release notebook's path."""
    return colab_badge(settings, lesson) or f"[{release_path(lesson)}]({release_path(lesson)})"


def lesson_table(course: Course) -> str:
    """The README's lesson table, in course order: chapter, phase, the id linked to its release notebook,
    title, the platforms it may be graded on and the devices it needs (its metadata), and a Colab badge
    where the course names its published repository."""
    settings = course.settings()
    head = ["chapter", "phase", "lesson", "title", "platforms", "devices"] + (["open"] if settings.repository else [])
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for lesson in course.lessons():
        info = course.info(lesson)
        cells = [str(info.chapter), f"{info.phase:02d}", f"[`{lesson}`]({release_path(lesson)})",
                 lesson_title(course, lesson), ", ".join(info.platforms), str(info.devices)]
        cells += [colab_badge(settings, lesson)] if settings.repository else []
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


def write_lesson_table(course: Course) -> list[Path]:
    """Refresh the generated lesson table in README.md, when the README has one."""
    readme = course.root / "README.md"
    if not readme.is_file():
        return []
    text = readme.read_text()
    if TABLE_START not in text or TABLE_END not in text:
        return []
    head, rest = text.split(TABLE_START, 1)
    tail = rest.split(TABLE_END, 1)[1]
    readme.write_text(f"{head}{TABLE_START}\n{lesson_table(course)}\n{TABLE_END}{tail}")
    return [readme]


def replace_folder(fresh: Path, target: Path, scratch: Path) -> None:
    """Put `fresh` where `target` is, keeping the old `target` until the new one is in place."""
    old = scratch / "old"
    target.parent.mkdir(parents=True, exist_ok=True)
    if target.exists():
        target.rename(old)
    try:
        shutil.move(fresh, target)
    except BaseException:
        if old.exists() and not target.exists():
            old.rename(target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def release(course: Course, lessons: list[str] | None = None) -> list[Path]:
    """Generate and verify the release of each lesson, then its exercises and downloads.

    Each lesson is generated into a scratch folder and replaces release/<lesson>/ only once
    nbgrader succeeded and the leak check passed: a failure leaves the last release in place.
    """
    course.ensure_config_file()
    course.state.mkdir(parents=True, exist_ok=True)
    written = []
    for lesson in course.select(lessons):
        with tempfile.TemporaryDirectory(prefix=f"release-{lesson}-", dir=course.state) as scratch:
            fresh = Path(scratch) / "new"
            try:
                generate(course, lesson, fresh)
            except CourseError as exc:
                raise CourseError(f"{exc}\n  release/{lesson}/ was left as it was.") from None
            problems = leaks(nbformat.read(course.lesson_notebook(lesson), as_version=4),
                             nbformat.read(fresh / lesson / f"{lesson}.ipynb", as_version=4))
            if problems:
                raise CourseError(f"release of {lesson} leaks (release/{lesson}/ was left as it was):\n  "
                                  + "\n  ".join(problems))
            replace_folder(fresh / lesson, course.release / lesson, Path(scratch))
        target = course.release / lesson / f"{lesson}.ipynb"
        written += [target, *write_artefacts(course, lesson, nbformat.read(target, as_version=4))]
    return written + write_resource_zips(course) + write_lesson_table(course)
