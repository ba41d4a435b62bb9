"""`jaxcourse publish`: the student edition holds no solution, hidden test or mutant, and its
Colab badges follow the course setting (or are absent)."""
import re
import shutil
import zipfile
from pathlib import Path

import nbformat
import pytest

from conftest import LESSONS, REPO, lessons_template
from jaxcourse.authoring.publish import MARKER, badge_note, find_secrets, github_remote, publish, secret_lines
from jaxcourse.authoring.release import release
from jaxcourse.course import Course, CourseError, Settings

# Colab opens a notebook on GitHub at /github/<owner>/<repo>/blob/<branch>/<path>.ipynb.
COLAB_GITHUB = re.compile(r"^https://colab\.research\.google\.com/github/[A-Za-z0-9-]+/[A-Za-z0-9._-]+/blob/"
                          r"[A-Za-z0-9._/-]+/[A-Za-z0-9._/-]+\.ipynb$")
BADGE_URL = re.compile(r"\(\s*(https://colab\.research\.google\.com/github/[^)\s]+)\)")


def broken_links(tree: Path) -> list[str]:
    """Relative links in the tree's README.md that name no file of the tree (GitHub resolves them so)."""
    readme = (tree / "README.md").read_text()
    links = re.findall(r"\]\(([^)\s]+)\)", readme)
    return [link for link in links if not re.match(r"[a-z]+:", link) and not (tree / link.split("#")[0]).is_file()]


def course_copy(root: Path, repository: str = "") -> Course:
    """Every lesson, released, in a scratch course; `repository` goes into its course.toml."""
    shutil.copytree(lessons_template().root, root / "course", symlinks=True)
    course = Course.at(root / "course")
    shutil.copy2(REPO / "requirements-cpu.txt", course.root)  # the pins the student requirements follow
    (course.root / "course.toml").write_text(f'[publish]\nrepository = "{repository}"\n[phases]\n1 = "Arrays"\n')
    return course


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    root = tmp_path_factory.mktemp("publish")
    course = course_copy(root, repository="jax-course-org/jax-course")
    target = root / "student"
    publish(course, target)
    return course, target


def test_the_published_tree_holds_what_students_need_and_nothing_else(published):
    course, target = published
    top = sorted(p.name for p in target.iterdir())
    assert top == sorted([MARKER, "README.md", "downloads", "exercises", "release", "requirements.txt", "resources"])
    for lesson in LESSONS:
        assert (target / "release" / lesson / f"{lesson}.ipynb").is_file()
        assert (target / "exercises" / f"{lesson}.py").read_text().rstrip().endswith(f'print("PASS: {lesson}")')
        notebook = nbformat.read(target / "exercises" / f"{lesson}.ipynb", as_version=4)
        assert notebook.cells[-1].source.rstrip().endswith(f'print("PASS: {lesson}")')
    names = [p.name for p in target.rglob("*")]
    assert not {"source", "mutants", "recorded-outputs.json", "gradebook.db", ".jaxcourse"} & set(names)
    notebooks = {p.relative_to(target).parts[0] for p in target.rglob("*.ipynb")}
    assert notebooks == {"release", "exercises"}, notebooks
    requirements = (target / "requirements.txt").read_text()
    assert "jax==" in requirements and "jupyterlab==" in requirements and "nbgrader" not in requirements


def test_no_solution_hidden_test_or_mutant_line_is_published(published):
    course, target = published
    secrets = secret_lines(course)
    assert {lesson for lesson in secrets.values()} == set(LESSONS), "every lesson has secret lines to look for"
    assert find_secrets(course, target) == []


def test_the_secret_search_finds_a_planted_line_in_a_notebook_and_in_a_zip(published, tmp_path):
    course, target = published
    secrets = secret_lines(course)
    solution_line = next(line for line, lesson in secrets.items() if lesson == LESSONS[0])
    tree = tmp_path / "tree"
    shutil.copytree(target, tree)
    nb_path = tree / "release" / LESSONS[0] / f"{LESSONS[0]}.ipynb"
    nb = nbformat.read(nb_path, as_version=4)
    nb.cells[-1].source += "\n    " + solution_line
    nbformat.write(nb, nb_path)
    hidden_line = next(line for line, lesson in secrets.items() if lesson == LESSONS[-1])
    with zipfile.ZipFile(tree / "downloads" / "planted.zip", "w") as archive:
        archive.writestr("notes/answers.py", f"x = 1\n{hidden_line}\n")
    found = find_secrets(course, tree)
    assert len(found) == 2, found
    assert "planted.zip:notes/answers.py" in found[0] + found[1]


def test_the_secret_search_looks_inside_nested_zips_numpy_files_and_zipped_notebooks(published, tmp_path):
    import io
    import numpy as np
    course, target = published
    lines = list(secret_lines(course))[:3]
    tree = tmp_path / "tree"
    shutil.copytree(target, tree)
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("answers.py", lines[0] + "\n")
    arrays = io.BytesIO()
    np.savez_compressed(arrays, notes=np.array([lines[1]]))  # UTF-32 in a deflated member
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1\n" + lines[2])])
    with zipfile.ZipFile(tree / "downloads" / "extras.zip", "w") as archive:
        archive.writestr("inner.zip", inner.getvalue())
        archive.writestr("data/arrays.npz", arrays.getvalue())
        archive.writestr("draft.ipynb", nbformat.writes(notebook))
    found = find_secrets(course, tree)
    for where in ("extras.zip:inner.zip:answers.py", "extras.zip:data/arrays.npz:notes.npy", "extras.zip:draft.ipynb"):
        assert any(where in line for line in found), (where, found)


def test_a_solution_line_in_a_recorded_output_stays_secret(tmp_path):
    """Recorded outputs come from running the solution: printing a solution line there must not
    make the line public, or publish would ship it."""
    import json
    course = course_copy(tmp_path)
    lesson = LESSONS[0]
    line = next(line for line, owner in secret_lines(course).items() if owner == lesson)
    recorded_path = course.source / lesson / "recorded-outputs.json"
    recorded = json.loads(recorded_path.read_text())
    cell_id = next(iter(recorded))
    recorded[cell_id] = recorded[cell_id] + [{"output_type": "stream", "name": "stdout", "text": line + "\n"}]
    recorded_path.write_text(json.dumps(recorded))
    assert line in secret_lines(course)
    release(course, [lesson])
    assert any(repr(line) in found for found in find_secrets(course, course.release / lesson))


def test_the_students_readme_lists_lessons_by_phase_in_course_order_with_badges(published):
    course, target = published
    readme = (target / "README.md").read_text()
    assert broken_links(target) == []
    positions = [readme.index(f"`{lesson}`") for lesson in LESSONS]
    assert positions == sorted(positions), "course order"
    assert "### Phase 01: Arrays" in readme and "### Phase 02" in readme
    urls = [url for url in BADGE_URL.findall(readme) if "/release/" in url]
    assert len(urls) == len(LESSONS) and all(COLAB_GITHUB.match(url) for url in urls), urls
    assert urls[0].endswith(f"jax-course-org/jax-course/blob/main/release/{LESSONS[0]}/{LESSONS[0]}.ipynb")
    examples = re.findall(r"\(\[Colab\]\((\S+)\)\)", readme)   # each example notebook opens in Colab too
    assert examples == [f"https://colab.research.google.com/github/jax-course-org/jax-course/blob/main/exercises/{lesson}.ipynb"
                        for lesson in LESSONS]
    for lesson in LESSONS:
        nb = nbformat.read(target / "release" / lesson / f"{lesson}.ipynb", as_version=4)
        assert nb.cells[1].id == "colab-badge"
        assert BADGE_URL.findall(nb.cells[1].source) == [urls[LESSONS.index(lesson)]]


def test_without_a_repository_nothing_carries_a_badge(tmp_path):
    course = course_copy(tmp_path)
    publish(course, tmp_path / "student")
    readme = (tmp_path / "student" / "README.md").read_text()
    assert "colab.research.google.com/github" not in readme and "OWNER" not in readme
    assert f"[release/{LESSONS[0]}/{LESSONS[0]}.ipynb]" in readme
    assert f"[{LESSONS[0]}.ipynb](exercises/{LESSONS[0]}.ipynb)" in readme
    for path in (tmp_path / "student" / "release").rglob("*.ipynb"):
        assert "colab.research.google.com/github" not in path.read_text()
    assert broken_links(tmp_path / "student") == [], "every link is a path in the published tree, as GitHub shows it"


def test_publish_refuses_a_foreign_folder_and_keeps_what_it_does_not_manage(tmp_path):
    course = course_copy(tmp_path)
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "thesis.tex").write_text("mine")
    with pytest.raises(CourseError, match="not empty"):
        publish(course, foreign)
    assert (foreign / "thesis.tex").read_text() == "mine" and len(list(foreign.iterdir())) == 1
    with pytest.raises(CourseError, match="outside the course"):
        publish(course, course.root / "student")
    target = tmp_path / "student"
    publish(course, target)
    (target / ".git").mkdir()
    (target / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (target / "release" / "stale-lesson").mkdir()
    publish(course, target)
    assert (target / ".git" / "HEAD").is_file() and not (target / "release" / "stale-lesson").exists()


@pytest.mark.fast
@pytest.mark.parametrize("toml, problem", [
    ('[publish]\nrepository = "OWNER/REPO"\n', "real GitHub"),
    ('[publish]\nrepository = "owner/repo"\n', "real GitHub"),
    ('[publish]\nrepository = "just-a-name"\n', "real GitHub"),
    ('[publish]\nrepository = "a/b/c"\n', "real GitHub"),
    ('[publish]\nrepository = "-x/y"\n', "real GitHub"),
    ('[publish]\nrepository = "jax-ml/jax"\nbranch = "-f"\n', "branch"),
    ('[publish]\nrepository = "jax-ml/jax"\nbranch = "a..b"\n', "branch"),
    ('[publish\n', "course.toml"),
    ('[phases]\none = "x"\n', "course.toml"),
])
def test_course_settings_refuse_placeholders_and_unusable_names(tmp_path, toml, problem):
    (tmp_path / "course.toml").write_text(toml)
    with pytest.raises(CourseError, match=problem):
        Settings.read(tmp_path / "course.toml")


@pytest.mark.fast
@pytest.mark.parametrize("repository, branch", [("jax-ml/jax", "main"), ("a/b.c", "gh-pages"),
                                                ("course-org/jax-course", "students/2026")])
def test_colab_urls_follow_colabs_github_scheme(tmp_path, repository, branch):
    (tmp_path / "course.toml").write_text(f'[publish]\nrepository = "{repository}"\nbranch = "{branch}"\n')
    url = Settings.read(tmp_path / "course.toml").colab_url("release/x-01/x-01.ipynb")
    assert COLAB_GITHUB.match(url) and url == (f"https://colab.research.google.com/github/{repository}/blob/"
                                               f"{branch}/release/x-01/x-01.ipynb")
    assert Settings.read(tmp_path / "missing.toml").colab_url("release/x-01/x-01.ipynb") is None


@pytest.mark.fast
@pytest.mark.parametrize("remote, repository", [
    ("https://github.com/uni-x/jax-course-2027.git", "uni-x/jax-course-2027"),
    ("https://github.com/uni-x/jax.course", "uni-x/jax.course"),
    ("git@github.com:uni-x/jax-course.git", "uni-x/jax-course"),
    ("ssh://git@github.com/uni-x/jax-course.git", "uni-x/jax-course"),
    ("https://gitlab.com/uni-x/jax-course.git", None),
    (None, None),
])
def test_without_a_repository_publish_says_how_to_set_it(tmp_path, remote, repository):
    """`jaxcourse release` and `publish` print this note while course.toml names no repository: the
    student edition's links are paths, and the TOML to write, with the target's GitHub remote where
    it has one. Written into course.toml as printed, it gives the badges."""
    course = Course.at(tmp_path / "course")
    course.root.mkdir()
    (course.root / "course.toml").write_text('[publish]\nrepository = ""\n')
    target = tmp_path / "student"
    target.mkdir()
    if remote is not None:
        (target / ".git").mkdir()
        (target / ".git" / "config").write_text(f'[core]\n\tbare = false\n[remote "origin"]\n\turl = {remote}\n'
                                                '\tfetch = +refs/heads/*:refs/remotes/origin/*\n')
    assert github_remote(target) == repository
    note = badge_note(course, target)
    assert "no Open-in-Colab badges" in note and "links each notebook by its path" in note
    assert str(course.root / "course.toml") in note and "jaxcourse publish" in note
    toml = "\n".join(line.split("#")[0].strip() for line in note.splitlines() if line.startswith("    "))
    assert toml.startswith("[publish]\nrepository = ")
    (course.root / "course.toml").write_text(toml + "\n")
    if repository is None:   # the placeholder: refused as it stands, so nobody publishes badges to nowhere
        with pytest.raises(CourseError, match="real GitHub"):
            course.settings()
    else:
        assert course.settings().repository == repository
        assert course.settings().colab_url("release/x/x.ipynb").endswith(f"/github/{repository}/blob/main/release/x/x.ipynb")
        assert badge_note(course, target) == "", "no note once the repository is set"
