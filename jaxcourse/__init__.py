"""Tooling for the JAX course: release lessons and grade submissions safely."""
import os
import sys

from .kernel import no_format_checkers  # noqa: F401  (before anything imports nbformat)

# nbgrader shells out to `alembic` (from this environment) when it creates a gradebook;
# make that work when the venv is not activated.
_bin = os.path.dirname(sys.executable)
if _bin not in os.environ.get("PATH", "").split(os.pathsep):
    os.environ["PATH"] = _bin + os.pathsep + os.environ.get("PATH", "")
