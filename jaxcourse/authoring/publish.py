"""`jaxcourse publish DIR`: the course as students get it, with no solution, hidden test or mutant.

The tree holds a README for students (lessons by phase, in course order), the release
notebooks, each lesson's example program (a script and a notebook), the downloads, the TPU guides and a
requirements.txt. An instructor pushes it as a public repository or branch; course.toml
names it, so the Colab badges open the notebooks there.

Before anything is written, every non-trivial line of every solution region, hidden-test
region and mutant is searched for in every file that would be published (zips included).
"""
from __future__ import annotations

import io
import re
import shutil
import tempfile
import zipfile
from pathlib import Path

import nbformat
import numpy as np

from . import fabricate
from ..course import SETTINGS_FILE, Course, CourseError, canonical, lesson_title
from .artefacts import RESOURCE_ZIPS
from .release import open_link, release

MARKER = ".jaxcourse-published"
MANAGED = ("README.md", "requirements.txt", "release", "exercises", "downloads", "resources", MARKER)
RESOURCES = tuple(RESOURCE_ZIPS.values())   # the course-wide guides, published as folders too
REGION = re.compile(r"^[ \t]*### BEGIN (SOLUTION|HIDDEN TESTS)[^\n]*\n(.*?)^[ \t]*### END \1", re.M | re.S)
SHORTEST_SECRET = 12   # characters, stripped: `return x` is no secret
# Lines no answer hides in: imports, and returning a bare name.
GENERIC = re.compile(r"^(import |from \S+ import |return [A-Za-z_][A-Za-z0-9_.]*$|pass$|else:$|try:$)")
STUDENT_PACKAGES = ("jupyterlab",)


def _lines(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def _visible_and_secret(course: Course, lesson: str) -> tuple[set[str], set[str]]:
    """Lines students may see (outside the regions) and lines they must not (inside the regions,
    or in mutants). Recorded outputs come from running the solution, so they are searched like
    any published text, never taken as proof that a line is public."""
    nb = nbformat.read(course.lesson_notebook(lesson), as_version=4)
    visible, secret = set(), set()
    for cell in nb.cells:
        secret |= {line for match in REGION.finditer(cell.source) for line in _lines(match.group(2))}
        visible |= _lines(REGION.sub("", cell.source))
    for mutant in fabricate.mutants(course, lesson):
        secret |= _lines(mutant.source)
    return visible, secret


def public_lines(course: Course) -> set[str]:
    """Lines of what the course publishes as written: the guides in RESOURCES and the lessons' downloads."""
    folders = [course.root / folder for folder in RESOURCES]
    folders += [course.source / lesson / "downloads" for lesson in course.lessons()]
    lines = set()
    for folder in folders:
        for path in folder.rglob("*") if folder.is_dir() else []:
            if path.is_file() and "__pycache__" not in path.parts:
                lines |= _lines(path.read_bytes().decode("utf-8", "replace"))
    return lines


def secret_lines(course: Course) -> dict[str, str]:
    """Each non-trivial secret line of the course -> the lesson it belongs to.

    Trivial: a comment, a line shorter than SHORTEST_SECRET, an import or other GENERIC line,
    or a line students see anyway (outside a lesson's regions, in the guides or downloads).
    """
    visible, secrets = public_lines(course), {}
    for lesson in course.lessons():
        seen, hidden = _visible_and_secret(course, lesson)
        visible |= seen
        for line in hidden:
            secrets.setdefault(line, lesson)
    return {line: lesson for line, lesson in secrets.items()
            if len(line) >= SHORTEST_SECRET and not line.startswith("#") and not GENERIC.match(line)
            and line not in visible}


def _output_text(output: dict) -> str:
    data = output.get("data", {})
    return "".join(output.get("text", "")) + "".join(data.get("text/plain", ""))


ARCHIVE_DEPTH = 4  # zips inside zips: deeper than any course ships, shallow enough to stop a zip bomb's nesting


def _texts(where: str, data: bytes, depth: int = 0) -> list[tuple[str, str]]:
    """(where, text) for a published file's bytes: a notebook's cells and outputs, each member of a
    zip (an .npz too, and zips inside zips), the strings of a NumPy array, or the text itself."""
    name = where.rsplit(":", 1)[-1].lower()
    text = data.decode("utf-8", "replace")
    if zipfile.is_zipfile(io.BytesIO(data)) and depth < ARCHIVE_DEPTH:
        found = []
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for member in archive.namelist():
                found += _texts(f"{where}:{member}", archive.read(member), depth + 1)
        return found
    if name.endswith(".npy"):
        try:  # UTF-32 inside: the raw bytes show no line of it
            array = np.load(io.BytesIO(data), allow_pickle=False)
            if array.dtype.kind in "US":
                text += "\n" + "\n".join(str(item) for item in array.ravel())
        except ValueError:
            pass
    elif name.endswith(".ipynb"):
        try:
            nb = nbformat.reads(text, as_version=4)
            parts = [cell.source for cell in nb.cells]
            parts += [_output_text(out) for cell in nb.cells for out in cell.get("outputs", [])]
            text = "\n".join(parts)
        except Exception:  # not a notebook after all: search its raw text
            pass
    return [(where, text)]


def find_secrets(course: Course, tree: Path) -> list[str]:
    """Every secret line found in a file under `tree`, as "where: line (lesson)"."""
    secrets = secret_lines(course)
    found = []
    for path in sorted(p for p in tree.rglob("*") if p.is_file() and ".git" not in p.relative_to(tree).parts):
        for where, text in _texts(str(path), path.read_bytes()):
            found += [f"{where}: {line!r} (from {secrets[line]})" for line in sorted(_lines(text) & secrets.keys())]
    return found


def requirements(course: Course) -> str:
    """What a student installs to run every lesson locally, at the course's tested versions."""
    pins = course.pins()
    names = {name for lesson in course.lessons() for name in course.info(lesson).packages.values()}
    names |= set(STUDENT_PACKAGES)
    wanted = sorted(f"{name}=={pins[canonical(name)]}" if canonical(name) in pins else name for name in names)
    return "# Everything the lessons import, at the versions the course is tested with.\n" + "\n".join(wanted) + "\n"


def student_readme(course: Course) -> str:
    settings = course.settings()
    lessons = course.lessons()
    phases: dict[int, list[str]] = {}
    for lesson in lessons:
        phases.setdefault(course.info(lesson).phase, []).append(lesson)
    setup = ("Run its first code cell before anything else: on Colab it installs the versions of jax and its "
             "libraries that the course is graded with (about a minute), and if it asks you to restart "
             "(Runtime → Restart session), do so and run it again. ")
    colab = ("click a lesson's **Open in Colab** badge below and save a copy to your Drive. " + setup +
             "Work it, then download it (File → Download → .ipynb) and hand in that file" if settings.repository else
             "upload a notebook from `release/` (File → Upload notebook). " + setup +
             "Work it, then download it (File → Download → .ipynb) and hand in that file")
    parts = [f"# {settings.title}", "",
             "Lessons in JAX as Jupyter notebooks that you run and answer yourself. Each lesson explains one "
             "idea, shows it in a figure and a worked program, lets you experiment, and ends with graded "
             "exercises. The visible checks in each notebook tell you how you are doing; hidden tests grade "
             "the notebook you hand in, on the platform your course grades on (the CPU, or a TPU).", "",
             "## How to work a lesson", "",
             f"- **In Google Colab:** {colab}.",
             "- **On your own machine:** `python3 -m venv .venv && .venv/bin/pip install -r requirements.txt`, "
             "then `.venv/bin/jupyter lab release/`.",
             "- Work from top to bottom. Before you hand a notebook in, restart its kernel and run every cell.",
             "- Each lesson's worked program is also a plain script: `JAX_PLATFORMS=cpu python exercises/<lesson>.py` "
             "runs it and ends with `PASS: <lesson>`. `exercises/<lesson>.ipynb` is the same program as a notebook, "
             "to open in Colab or upload to any Jupyter runtime (a TPU or GPU one too).", "",
             "## Lessons", ""]
    for phase in sorted(phases):
        title = settings.phases.get(phase)
        parts += [f"### Phase {phase:02d}" + (f": {title}" if title else ""), "",
                  "| chapter | lesson | title | open | example program |", "|---|---|---|---|---|"]
        for lesson in phases[phase]:
            script, notebook = f"exercises/{lesson}.py", f"exercises/{lesson}.ipynb"
            colab = settings.colab_url(notebook)
            parts.append(f"| {course.info(lesson).chapter} | `{lesson}` | {lesson_title(course, lesson)} "
                         f"| {open_link(settings, lesson)} | [{script}]({script}), [{lesson}.ipynb]({notebook})"
                         + (f" ([Colab]({colab}))" if colab else "") + " |")
        parts.append("")
    zips = [f"{folder.name}.zip" for lesson in lessons for folder in
            sorted(p for p in (course.source / lesson / "downloads").glob("*") if p.is_dir())]
    zips += [f"{name}.zip" for name in RESOURCE_ZIPS]
    zips = [name for name in zips if (course.root / "downloads" / name).is_file()]
    if zips:  # in course order: the lessons' downloads, then the course-wide guides
        parts += ["## Downloads", ""] + [f"- [downloads/{name}](downloads/{name})" for name in zips] + [""]
    return "\n".join(parts)


GITHUB_REMOTE = re.compile(r"^\s*url\s*=\s*(?:https://github\.com/|git@github\.com:|ssh://git@github\.com/)"
                           r"([A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+?)(?:\.git)?/?\s*$", re.M)


def github_remote(folder: Path) -> str | None:
    """The "owner/name" of the first GitHub remote in `folder`'s own .git/config, if it has one."""
    try:
        config = (folder / ".git" / "config").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = GITHUB_REMOTE.search(config)
    return match.group(1) if match else None


def badge_note(course: Course, target: Path | None = None) -> str:
    """What `release` and `publish` tell an instructor whose course.toml names no repository: the
    student edition links each notebook by its path, and how to add Open-in-Colab badges. Empty
    when the repository is set."""
    if course.settings().repository:
        return ""
    remote = github_remote(target) if target is not None else None
    where = target if target is not None else "the student edition's folder"
    return ("note: course.toml names no published repository, so there are no Open-in-Colab badges; "
            "the student edition's README links each notebook by its path, which works on GitHub.\n"
            f"  For badges: push {where} to a public GitHub repository, set in {course.root / SETTINGS_FILE}\n"
            "    [publish]\n"
            f"    repository = \"{remote or 'your-org/your-repo'}\""
            + ("   # the GitHub remote of that folder" if remote else "") + "\n"
            '    branch = "main"\n'
            "  then run `jaxcourse publish` again (it releases every lesson with its badge).")


def _stage(course: Course, stage: Path) -> None:
    """Write the published tree into an empty folder."""
    for lesson in course.lessons():
        shutil.copytree(course.release / lesson, stage / "release" / lesson)
        for program in (course.root / "exercises" / f"{lesson}.py", course.root / "exercises" / f"{lesson}.ipynb"):
            if program.is_file():
                (stage / "exercises").mkdir(exist_ok=True)
                shutil.copy2(program, stage / "exercises" / program.name)
    if (course.root / "downloads").is_dir():
        shutil.copytree(course.root / "downloads", stage / "downloads")
    for folder in RESOURCES:
        if (course.root / folder).is_dir():
            shutil.copytree(course.root / folder, stage / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (stage / "README.md").write_text(student_readme(course))
    (stage / "requirements.txt").write_text(requirements(course))
    (stage / MARKER).write_text("Written by `jaxcourse publish`; the next publish replaces: "
                                + ", ".join(MANAGED) + "\n")


def publish(course: Course, target: Path) -> list[Path]:
    """Release every lesson, then write the student tree to `target`; refuse if anything secret is in it.

    `target` must be empty, missing, or an earlier publish (anything else there, such as .git
    or a LICENSE, is kept).
    """
    target = target.resolve()
    if target == course.root or course.root in target.parents:
        raise CourseError(f"publish outside the course folder, not into {target}")
    if target.exists() and any(target.iterdir()) and not (target / MARKER).is_file():
        raise CourseError(f"{target} is not empty and not an earlier `jaxcourse publish`: nothing was written")
    release(course)
    with tempfile.TemporaryDirectory(prefix="jaxcourse-publish-") as scratch:
        stage = Path(scratch) / "course"
        stage.mkdir()
        _stage(course, stage)
        leaked = find_secrets(course, stage)
        if leaked:
            raise CourseError("the published course would hold solutions or hidden tests:\n  " + "\n  ".join(leaked[:20]))
        target.mkdir(parents=True, exist_ok=True)
        for name in MANAGED:
            old = target / name
            if old.is_dir() and not old.is_symlink():
                shutil.rmtree(old)
            elif old.exists() or old.is_symlink():
                old.unlink()
        for entry in sorted(stage.iterdir()):
            shutil.move(str(entry), target / entry.name)
    return sorted(p for p in target.rglob("*") if p.is_file() and ".git" not in p.relative_to(target).parts)
