"""release/ is generated from source/, committed, and leaks nothing a student must not see."""
import ast
import json
import os
import re
import subprocess
import sys
import zipfile

import nbformat
import pytest

from conftest import LESSONS, REPO, lessons_template
from nbclient import NotebookClient

from jaxcourse.authoring.artefacts import SETUP_ID, example_problems, example_source
from jaxcourse.authoring.check import hidden_asserts, source_problems
from jaxcourse.course import Course
from jaxcourse.authoring.lessonfile import read_recorded
from jaxcourse.authoring.release import leaks

SOURCE = Course.at(REPO)


def normalized(path):
    return json.loads(json.dumps(nbformat.read(path, as_version=4), sort_keys=True))


def test_there_are_lessons():
    assert {"welcome-01", "welcome-02"} <= set(LESSONS)


GENERATED = ("release", "exercises", "downloads")


def generated_files(root):
    return sorted(p.relative_to(root) for folder in GENERATED for p in (root / folder).rglob("*")
                  if p.is_file() and p.name != ".gitkeep")


def zip_contents(path):
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_generated_artefacts_match_a_fresh_regeneration():
    """Drift check: `make release` must have been run and committed after every source edit."""
    course = lessons_template()  # every lesson and the resources, released from a copy of source/
    committed, regenerated = generated_files(SOURCE.root), generated_files(course.root)
    assert committed == regenerated, "generated files differ from what source/ produces (run `make release`)"
    for relative in committed:
        ours, fresh = SOURCE.root / relative, course.root / relative
        if relative.suffix == ".ipynb":
            same = normalized(ours) == normalized(fresh)
        elif relative.suffix == ".zip":
            same = zip_contents(ours) == zip_contents(fresh)
        else:
            same = ours.read_bytes() == fresh.read_bytes()
        assert same, f"{relative} drifted from source/ (run `make release`)"


@pytest.mark.fast
@pytest.mark.parametrize("lesson", LESSONS)
def test_example_program_defaults_to_the_cpu_and_ends_pass(lesson):
    assert example_problems(example_source(SOURCE, lesson) or "", lesson) == []


@pytest.mark.fast
@pytest.mark.parametrize("source", [
    'import jax\nprint("PASS: demo-01")',
    'import os\nimport jax\nos.environ.setdefault("JAX_PLATFORMS", "cpu")\nprint("PASS: demo-01")',
    'import os\nos.environ["JAX_PLATFORMS"] = "cpu"\nimport jax\nprint("PASS: demo-01")',
    'import os\nos.environ.setdefault("JAX_PLATFORMS", "cpu")\nimport jax\nprint("PASS")',
    'import os\nos.environ.setdefault("JAX_PLATFORMS", "cpu")\nimport jax\n### BEGIN SOLUTION\nx = 1\n'
    '### END SOLUTION\nprint("PASS: demo-01")',
])
def test_an_example_that_forces_or_skips_the_platform_or_the_pass_line_is_refused(source):
    assert example_problems(source, "demo-01")


@pytest.mark.parametrize("lesson", LESSONS)
def test_example_program_runs_and_passes(lesson, tmp_path):
    """exercises/<id>.py is the lesson's "Run the example" cell, and its recorded output ends PASS too."""
    source = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    example = [cell.id for cell in source.cells if "example" in cell.metadata.get("tags", [])]
    assert len(example) == 1, f"{lesson}: one \"Run the example\" cell (tag `example`), found {example}"
    recorded = read_recorded(SOURCE.source / lesson).get(example[0])
    assert recorded, f"{lesson}: no recorded output for its example cell (run `jaxcourse record-figures {lesson}`)"
    shown = "".join(out.get("text", "") for out in recorded if out.get("output_type") == "stream")
    assert shown.rstrip().splitlines()[-1] == f"PASS: {lesson}"
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "MPLBACKEND": "Agg"}
    done = subprocess.run([sys.executable, str(SOURCE.root / "exercises" / f"{lesson}.py")], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.rstrip().splitlines()[-1] == f"PASS: {lesson}"


@pytest.mark.fast
@pytest.mark.parametrize("lesson", LESSONS)
def test_example_notebook_is_the_release_setup_cell_then_the_example(lesson):
    """exercises/<id>.ipynb: a note, the release's own setup cell and the example program; clean, nothing secret."""
    nb = nbformat.read(SOURCE.root / "exercises" / f"{lesson}.ipynb", as_version=4)
    released = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    source = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    example = next(cell for cell in source.cells if "example" in cell.metadata.get("tags", []))
    assert [(cell.cell_type, cell.id) for cell in nb.cells] == [
        ("markdown", "about"), ("code", SETUP_ID), ("code", example.id)]
    assert nb.cells[1].source == next(cell.source for cell in released.cells if cell.get("id") == SETUP_ID)
    assert nb.cells[2].source == example.source
    script = (SOURCE.root / "exercises" / f"{lesson}.py").read_text()
    assert script.rstrip().endswith(example.source.rstrip()), "the script and the notebook hold the same program"
    for cell in nb.cells:
        assert cell.metadata == {}, f"{cell.id}: no nbgrader or tag metadata"
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{cell.id}: no outputs"
    assert leaks(source, nb) == []


# exercises/<id>.ipynb is the release's setup cell and the program exercises/<id>.py holds (checked
# above for every lesson); each program runs above and each setup cell in every Colab run
# (tests/test_colab.py). The notebook form runs here for a one-device and a several-device lesson.
NOTEBOOK_RUNS = (LESSONS[0], next(name for name in LESSONS if SOURCE.info(name).devices > 1))


@pytest.mark.parametrize("lesson", NOTEBOOK_RUNS)
def test_example_notebook_runs_and_passes(lesson, tmp_path):
    """exercises/<id>.ipynb, run all in a real kernel as a student does, ends PASS: <id>."""
    nb = nbformat.read(SOURCE.root / "exercises" / f"{lesson}.ipynb", as_version=4)
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "MPLBACKEND": "Agg"}
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute(
        cwd=str(tmp_path), env=env)
    shown = "".join(out.get("text", "") for out in nb.cells[-1].outputs if out.output_type == "stream")
    assert shown.rstrip().splitlines()[-1] == f"PASS: {lesson}"


def test_tpu_guides_zip_holds_the_labs():
    with zipfile.ZipFile(SOURCE.root / "downloads" / "jax-tpu-gcp.zip") as archive:
        names = set(archive.namelist())
    assert {"resources/tpu-gcp/README.md", "resources/tpu-gcp/launch.py",
            "resources/tpu-gcp/precision_profile.py"} <= names


def test_beginner_workspace_zip_runs(tmp_path):
    with zipfile.ZipFile(SOURCE.root / "downloads" / "jax-start-here.zip") as archive:
        assert sorted(archive.namelist()) == ["jax-start-here/START-HERE.md", "jax-start-here/first_experiment.py",
                                              "jax-start-here/requirements-cpu.txt"]
        archive.extractall(tmp_path)
    workspace = tmp_path / "jax-start-here"
    done = subprocess.run([sys.executable, "first_experiment.py"], cwd=workspace, capture_output=True, text=True,
                          timeout=300, env={k: v for k, v in os.environ.items() if k != "JAX_PLATFORMS"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Backend: cpu" in done.stdout and done.stdout.rstrip().endswith("Sum: 6.0")
    pins = (workspace / "requirements-cpu.txt").read_text()
    for pin in ("jax==0.9.2", "jaxlib==0.9.2", "numpy==2.4.4", "optax==0.2.8", "rich==15.0.0"):  # rich draws welcome-cpu's shardings
        assert pin in pins and pin in (SOURCE.root / "requirements-cpu.txt").read_text()


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_hides_solutions_hidden_tests_and_outputs(lesson):
    source = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    released = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    assert leaks(source, released) == []
    assert any(c.metadata.get("nbgrader", {}).get("grade") for c in released.cells)


def test_leak_check_catches_a_planted_solution_and_hidden_test():
    lesson = LESSONS[0]
    source = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    planted = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    solution = next(c for c in source.cells if c.metadata.get("nbgrader", {}).get("solution"))
    test = next(c for c in source.cells if "BEGIN HIDDEN TESTS" in c.source)
    for cell in planted.cells:
        if cell.get("id") == solution.id:
            cell.source = solution.source.replace("### BEGIN SOLUTION", "").replace("### END SOLUTION", "")
            cell.outputs = [nbformat.v4.new_output("stream", text="42\n")]
        if cell.get("id") == test.id:
            cell.source = test.source
    problems = "\n".join(leaks(source, planted))
    assert "hidden line" in problems
    assert "grader_check" in problems or "HIDDEN TESTS" in problems
    assert "kept its outputs" in problems


@pytest.mark.parametrize("lesson", LESSONS)
def test_source_notebook_is_clean(lesson):
    """No outputs, no execution counts, stable ids: a prose edit is a one-line diff. Hidden
    tests only export: no assert among them (check-lesson's own checks)."""
    path = SOURCE.lesson_notebook(lesson)
    assert source_problems(nbformat.from_dict(json.loads(path.read_text()))) == [], \
        "run `jaxcourse clean-source`; ids must be present and unique"
    assert hidden_asserts(nbformat.read(path, as_version=4)) == []


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_chapter_label_matches_the_lesson_metadata(lesson):
    nb = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    label = f"*Lesson `{lesson}` · Chapter {SOURCE.info(lesson).chapter} of the JAX course*"
    assert label in nb.cells[0].source, f"the title cell should carry {label}"


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_lesson_declares_every_package_it_imports(lesson):
    """metadata.jaxcourse.packages feeds the Colab setup cell: an undeclared import breaks Colab."""
    nb = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    imported = set()
    for cell in nb.cells:
        if cell.cell_type == "code":
            for node in ast.walk(ast.parse(cell.source)):  # parsed: a docstring line "from one ..." is no import
                if isinstance(node, ast.Import):
                    imported |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.level == 0:
                    imported.add(node.module.split(".")[0])
    third_party = {name for name in imported if name not in sys.stdlib_module_names} - {"IPython"}
    declared = set(SOURCE.info(lesson).packages)
    assert third_party <= declared, f"declare {sorted(third_party - declared)} in metadata.jaxcourse.packages"


def test_lessons_are_listed_in_course_order():
    chapters = [SOURCE.info(lesson).chapter for lesson in LESSONS]
    assert chapters == sorted(chapters) and len(set(chapters)) == len(chapters), "one lesson per chapter"
    assert LESSONS[:2] == ["welcome-01", "welcome-02"]


@pytest.mark.parametrize("lesson", LESSONS)
def test_recorded_outputs_cover_the_figures_and_the_example(lesson):
    nb = nbformat.read(SOURCE.lesson_notebook(lesson), as_version=4)
    recorded = read_recorded(SOURCE.source / lesson)
    figures = [c.id for c in nb.cells if "figure" in c.metadata.get("tags", [])]
    assert figures and all(any("image/png" in o.get("data", {}) for o in recorded.get(i, [])) for i in figures), \
        "every lesson records at least one figure output (jaxcourse record-figures)"
    for cell in nb.cells:
        if "example" in cell.metadata.get("tags", []):
            text = "".join(o.get("text", "") for o in recorded.get(cell.id, []) if o.get("output_type") == "stream")
            assert text.rstrip().endswith(f"PASS: {lesson}"), f"{cell.id}: record its output ending PASS: {lesson}"
    assert set(recorded) <= {c.id for c in nb.cells}, "recorded outputs of cells that no longer exist"


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_runs_without_this_repository(lesson):
    """Releases must work in Colab: no imports of jaxcourse, JAX_PLATFORMS only as a default."""
    nb = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert not re.search(r"^\s*(import|from)\s+jaxcourse", code, re.M)
    forced = re.search(r"""environ\[\s*["']JAX_PLATFORMS["']\s*\]\s*=(?!=)|putenv\(\s*["']JAX_PLATFORMS"""
                       r"""|environ\.update\([^)]*JAX_PLATFORMS""", code)
    assert forced is None, f"set JAX_PLATFORMS only with os.environ.setdefault: {forced and forced.group(0)}"


def test_readme_lesson_table_is_current():
    from jaxcourse.authoring.release import TABLE_END, TABLE_START, lesson_table
    readme = (SOURCE.root / "README.md").read_text()
    block = readme.split(TABLE_START, 1)[1].split(TABLE_END, 1)[0].strip()
    assert block == lesson_table(SOURCE), "README lesson table drifted (run `make release`)"


@pytest.mark.parametrize("lesson", LESSONS)
def test_release_opens_with_the_colab_setup_and_a_badge_only_where_configured(lesson, tmp_path):
    nb = nbformat.read(SOURCE.release / lesson / f"{lesson}.ipynb", as_version=4)
    settings = SOURCE.settings()
    badges = [cell for cell in nb.cells if "colab.research.google.com/github" in cell.source]
    if settings.repository:
        assert [cell.id for cell in nb.cells[1:3]] == ["colab-badge", "colab-setup"]
        assert settings.colab_url(f"release/{lesson}/{lesson}.ipynb") in nb.cells[1].source
    else:
        assert not badges and nb.cells[1].id == "colab-setup", "no badge while course.toml names no repository"
    setup = next(cell for cell in nb.cells if cell.get("id") == "colab-setup")
    # On "Colab" (a google.colab module is importable) with everything installed, it installs nothing.
    fake = tmp_path / "google" / "colab"
    fake.mkdir(parents=True)
    (tmp_path / "google" / "__init__.py").write_text("")
    (fake / "__init__.py").write_text("")
    program = "import google.colab\n" + setup.source
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0 and "Installing" not in done.stdout, done.stderr
    assert "as the grader does" in done.stdout, done.stdout
