"""`jaxcourse new-lesson ID`: a lesson folder in the course's anatomy, ready to fill in.

It passes `jaxcourse check-lesson` as written, so an author starts from green: a chapter
label, the setup cell, a figure, a worked step, "Run the example", one exercise with its
hidden test and a mutant, a checkpoint, and the closing sections.
"""
from __future__ import annotations

import re

import nbformat

from ..course import PLATFORMS, Course, CourseError

LESSON_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

SETUP = '''\
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier (e.g. by the grader) wins

import jax
import jax.numpy as jnp
import matplotlib.pyplot as plt
import numpy as np

print("JAX version:", jax.__version__)
print("default backend:", jax.default_backend())'''

FIGURE = '''\
xs = np.linspace(-2, 2, 41)
fig, ax = plt.subplots(figsize=(5, 3))
ax.plot(xs, np.asarray(jnp.square(xs)), label="x ** 2")
ax.set_xlabel("x")
ax.legend()
plt.show()'''

EXAMPLE = '''\
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # `python exercises/{lesson}.py` runs on the CPU unless told otherwise

import jax.numpy as jnp

x = jnp.arange(4.0)
doubled = 2 * x
print("doubled:", doubled)
assert doubled.tolist() == [0.0, 2.0, 4.0, 6.0]
print("PASS: {lesson}")'''

SOLUTION = '''\
def double(x):
    """Return an array of the same shape with every entry doubled."""
    ### BEGIN SOLUTION
    return 2 * jnp.asarray(x)
    ### END SOLUTION'''

TEST = '''\
assert double(jnp.array([1.0, 2.0])).tolist() == [2.0, 4.0], "double([1, 2]) is [2, 4]"
### BEGIN HIDDEN TESTS
# Small integers and halves: exact in every float dtype, on every platform.
grader_check("double-odd-length", double(jnp.array([0.5, -3.0, 7.0], dtype=jnp.float32)))
grader_check("double-under-jit", jax.jit(double)(jnp.arange(6, dtype=jnp.int32).reshape(2, 3)))
### END HIDDEN TESTS'''

MUTANT = '''\
# replaces: exercise-solution
# fails: exercise-test
def double(x):
    # Squares instead of doubling: right for the prompt's [1, 2] only at 2.
    return jnp.asarray(x) ** 2 + (jnp.asarray(x) == 1)
'''


def _graded(kind: str, grade_id: str, source: str, points: int = 0) -> nbformat.NotebookNode:
    meta = {"grade": kind == "test", "grade_id": grade_id, "locked": kind == "test",
            "schema_version": 3, "solution": kind == "solution"}
    if kind == "test":
        meta["points"] = points
    return nbformat.v4.new_code_cell(source, id=grade_id, metadata={"nbgrader": meta})


def new_lesson(course: Course, lesson: str, phase: int) -> list:
    """Write source/<lesson>/ with a notebook and one mutant; return the paths written."""
    if not LESSON_ID.match(lesson):
        raise CourseError(f"lesson ids are lowercase words joined by hyphens, like 'jit-03'; got {lesson!r}")
    folder = course.source / lesson
    if folder.exists():
        raise CourseError(f"{folder} already exists")
    chapter = max((course.info(known).chapter for known in course.lessons()), default=0) + 1
    md, code = nbformat.v4.new_markdown_cell, nbformat.v4.new_code_cell
    cells = [
        md(f"# TITLE\n\n*Lesson `{lesson}` · Chapter {chapter} of the JAX course*\n\nOne paragraph: what the "
           "student builds and why.\n\n## What you will be able to do\n\n- …", id="title"),
        md("## The problem\n\n…\n\n## The idea\n\n…", id="problem-idea"),
        code(SETUP, id="setup"),
        md("## Predict before looking\n\nWhat will the figure show?", id="predict"),
        code(FIGURE, id="figure", metadata={"tags": ["figure"]}),
        md("## Read the figure\n\n…", id="read-figure"),
        md("## Step 1 — …", id="step-1-md"),
        code("x = jnp.arange(4.0)\nprint(2 * x)", id="step-1"),
        md("## Run the example\n\nThe steps above as one program.", id="run-example-md"),
        code(EXAMPLE.format(lesson=lesson), id="run-example", metadata={"tags": ["example"]}),
        md("## Experiment 1 — …\n\n**Predict before running:** …", id="experiment-1-md"),
        code("print(2 * jnp.arange(3))", id="experiment-1"),
        md("## Your exercise — …\n\nWrite `double(x)`.", id="exercise-md"),
        _graded("solution", "exercise-solution", SOLUTION),
        _graded("test", "exercise-test", TEST, points=2),
        md("## Checkpoint\n\n…? Set `checkpoint_answer` to 1, 2 or 3.", id="checkpoint-md"),
        _graded("solution", "checkpoint-solution",
                "# Set checkpoint_answer to 1, 2 or 3.\n### BEGIN SOLUTION\ncheckpoint_answer = 2\n### END SOLUTION"),
        _graded("test", "checkpoint-test", 'assert checkpoint_answer in (1, 2, 3), "answer 1, 2 or 3"\n'
                "### BEGIN HIDDEN TESTS\ngrader_check(\"checkpoint\", checkpoint_answer)\n### END HIDDEN TESTS", 1),
        md("## Diagnose the result\n\n| symptom | likely cause | what to check |\n|---|---|---|\n| … | … | … |",
           id="diagnose"),
        md("## Carry forward\n\n- …", id="carry-forward"),
        md("## Your evidence\n\n- …", id="evidence"),
        md("## Primary references\n\n- …", id="references"),
    ]
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"display_name": "Python 3", "language": "python", "name": "python3"}
    nb.metadata["language_info"] = {"name": "python"}
    nb.metadata["jaxcourse"] = {"chapter": chapter, "phase": phase, "devices": 1, "platforms": list(PLATFORMS),
                                "packages": {"jax": "jax", "matplotlib": "matplotlib", "numpy": "numpy"}}
    (folder / "mutants").mkdir(parents=True)
    notebook = folder / f"{lesson}.ipynb"
    nbformat.write(nb, notebook)
    mutant = folder / "mutants" / "exercise_squares.py"
    mutant.write_text(MUTANT)
    checkpoint = folder / "mutants" / "checkpoint_wrong_option.py"
    checkpoint.write_text("# replaces: checkpoint-solution\n# fails: checkpoint-test\ncheckpoint_answer = 1\n")
    return [notebook, mutant, checkpoint]
