"""Tooling for the JAX course: release lessons and grade submissions safely.

Three jobs, one package each, each importing only those listed after it:
- `authoring`: write, check, release and publish lessons;
- `grading`: grade submissions (collect → sanitize → score → record → report);
- `run`: run one notebook, in a sandbox on a platform, locally, on Ray or in-process.
On top: `cli` (the `jaxcourse` command), `inprocess` (`python -m jaxcourse.inprocess`) and
`export` (nbgrader's export plugins). Below all but `run`: `course` (the course folder, its
settings and lessons' metadata, nbgrader's configuration). `kernel/` runs inside the sandbox.

Importing the package does nothing else: the command-line entry points (cli, inprocess) drop
jsonschema's format checkers before nbformat loads, and the gradebook puts this environment's
tools on PATH when it is first reached (course.Course.db_url).
"""
