"""Helpers shared by launch.py and precision_profile.py (standard library only)."""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform as _platform
from pathlib import Path

PLATFORMS = ("cpu", "gpu", "tpu")
# Packages whose versions a receipt reports, when installed.
PACKAGES = ("jax", "jaxlib", "numpy", "optax", "orbax-checkpoint", "matplotlib", "libtpu", "libtpu-nightly",
            "jax-cuda12-plugin", "jax-cuda13-plugin")


def now_iso() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def write_json(path: Path, data) -> None:
    """Write atomically, so a reader (or a crash) never sees half a file."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, path)


def package_versions() -> dict[str, str]:
    from importlib import metadata
    found = {"python": _platform.python_version()}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return found
