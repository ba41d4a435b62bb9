"""The package's shape: what the code must keep true as modules move (fast, no kernels)."""
import shutil

import pytest

from jaxcourse import trusted

pytestmark = pytest.mark.fast


def test_code_digest_sees_modules_in_subfolders(tmp_path):
    """Stored expected values are keyed on the grader's code: an edit of a module in a subfolder
    (the kernel's figures backend, or a module moved into a package) must change the key."""
    package = tmp_path / "jaxcourse"
    shutil.copytree(trusted.PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = trusted.code_digest(package)
    assert before == trusted.code_digest(package)
    figures = package / "kernel" / "figures" / "jaxcourse_figures.py"
    figures.write_text(figures.read_text() + "\n# edited\n")
    edited = trusted.code_digest(package)
    assert edited != before
    (package / "run").mkdir()
    (package / "run" / "platforms.py").write_text("X = 1\n")
    added = trusted.code_digest(package)
    assert added != edited
    (package / "run" / "platforms.py").rename(package / "run" / "moved.py")
    assert trusted.code_digest(package) not in (before, edited, added)
