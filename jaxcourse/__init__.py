"""Tooling for the JAX course: release lessons and grade submissions safely.

Three jobs, one package each, each importing only those listed after it:
- `authoring`: write, check, release and publish lessons;
- `grading`: grade submissions (collect → sanitize → score → record → report);
- `run`: run one notebook, in a sandbox on a platform, locally, on Ray or in-process.
On top: `cli` (the `jaxcourse` command), `inprocess` (`python -m jaxcourse.inprocess`),
`export` (nbgrader's export plugins) and `hub` (a class hub: JupyterHub, accounts, the exchange). Below all but `run`: `course` (the course folder, its
settings and lessons' metadata, nbgrader's configuration). `kernel/` runs inside the sandbox.

Importing the package does nothing else: the command-line entry points (cli, inprocess) drop
jsonschema's format checkers before nbformat loads, and the gradebook puts this environment's
tools on PATH when it is first reached (course.Course.db_url).
"""

# The private names of other libraries that the package still uses, each with why no public
# one serves (tests/test_layout.py finds every private name in the package and compares).
PRIVATE_NAMES = {
    "_showtraceback": "IPython, run/kernelfree.py RecordingShell: where a traceback goes. IPython's docstring "
                      "names this method as the one subclasses override to send tracebacks elsewhere, and "
                      "ipykernel overrides it for the same job; the public set_custom_exc sees neither a "
                      "syntax error nor an error in IPython's own input handling.",
    "_check_late_penalty": "nbgrader, grading/late.py: nbgrader's own clamp of a late penalty to [0, score], so "
                           "penalties match `nbgrader autograde`. Its public path, AssignLatePenalties.preprocess, "
                           "opens the gradebook without the course id (adding a 'default_course') once per notebook.",
    "jax._src.array": "jax, kernel/prelude.py: the exact class of a concrete jax.Array (ArrayImpl), looked up "
                      "without importing jax; jax.Array is an abstract base, and jax exports the concrete class "
                      "nowhere public. An exact type, since a subclass could answer as it pleases.",
}
