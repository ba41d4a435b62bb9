"""The sandbox command: what bubblewrap builds around one notebook run.

The sandbox sees the Python installation read-only, a private tmpfs home, one input folder and
one output folder. It has no network, its own pid namespace, no capabilities, no view of the
course folder, and (with seccomp.py's filter) no IP sockets where the host refuses them. Its
options reach bwrap through a file descriptor, never its command line.
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from .limits import Limits
from .platforms import TABLE
from .runner import KERNEL_DIR

SANDBOX_HOME = "/home/student"
SANDBOX_GRADER = "/grader"
SANDBOX_HOSTNAME = "sandbox"
SANDBOX_CACHE = "/grader/jax-cache"
SANDBOX_FONT_CACHE = f"{SANDBOX_HOME}/.cache/matplotlib"  # where matplotlib keeps its font list
NAMESPACES = ("--unshare-user", "--uid", "65534", "--gid", "65534",
              "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
              "--disable-userns", "--die-with-parent", "--new-session", "--cap-drop", "ALL")
UNSAFE_HINT = "to run trusted notebooks only (your own), pass --unsafe-no-sandbox"
BASIC_DEVICES = ("null", "zero", "full", "random", "urandom")
# Host variables that may cross into the sandbox, by exact name: where the accelerator
# runtime and its libraries are, and how XLA is tuned. Nothing else does.
PASSTHROUGH = ("LD_LIBRARY_PATH", "XLA_FLAGS", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_ALLOCATOR",
               "TPU_LIBRARY_PATH", "TPU_ACCELERATOR_TYPE", "TPU_SKIP_MDS_QUERY", "TPU_WORKER_ID",
               "TPU_WORKER_HOSTNAMES", "TPU_RUNTIME_METRICS_PORTS", "NVIDIA_DRIVER_CAPABILITIES")
# Outputs an executed notebook may hold: the runner keeps at most 11,000 (kernel/run_notebook.py's


class SandboxUnavailable(RuntimeError):
    pass



@functools.cache  # once per process: the host does not change its mind
def sandbox_problem() -> str:
    """Why no sandbox can start on this host, in one sentence; empty when one can."""
    bwrap = bwrap_path()
    if not bwrap:
        return f"bubblewrap (bwrap) is not installed; install the 'bubblewrap' package, or {UNSAFE_HINT}"
    done = subprocess.run([bwrap, *NAMESPACES, "--ro-bind", "/", "/", "true"], capture_output=True, text=True,
                          timeout=60, env=LAUNCH_ENV)
    if done.returncode == 0:
        return ""
    said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    reason = ("this host does not allow user namespaces, which the bubblewrap sandbox needs"
              if "namespace" in said.lower() or "uid map" in said.lower() else "bubblewrap cannot start a sandbox here")
    return f"{reason} ({said}); nothing was started: {UNSAFE_HINT}"


def require_sandbox() -> None:
    """Raise SandboxUnavailable, with sandbox_problem()'s sentence, unless a sandbox can start here."""
    problem = sandbox_problem()
    if problem:
        raise SandboxUnavailable(problem)


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def hostpython_path() -> list[str]:
    """The folders this Python finds packages in through PYTHONPATH (a TPU VM provides JAX so), which
    every run needs too."""
    return [path for path in os.environ.get("PYTHONPATH", "").split(os.pathsep)
            if os.path.isabs(path) and os.path.isdir(path)]


def python_path(*first: str) -> str:
    return os.pathsep.join([*first, *hostpython_path()])


def _readonly_roots() -> list[str]:
    """The directories the kernel needs: the interpreter, the venv, PYTHONPATH and system libraries."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], *hostpython_path()}
    for system_dir in ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/alternatives",
                       "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                       "/etc/localtime", "/etc/fonts", "/etc/ssl"):
        if os.path.lexists(system_dir):
            roots.add(system_dir)
    # Drop any root that lies inside another; keep the outermost.
    kept = []
    for root in sorted(roots, key=len):
        if not any(root == k or root.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(root)
    return kept


def assert_hidden(course_root: Path) -> None:
    """Refuse to run when the course folder would be visible through a read-only root."""
    course = str(course_root.resolve())
    for root in _readonly_roots():
        real = os.path.realpath(root)
        if course == real or course.startswith(real.rstrip("/") + "/"):
            raise SandboxUnavailable(
                f"the course folder {course} lies inside {real}, which the sandbox must mount; "
                "move the course folder outside the Python installation")


def sandbox_env(platform: str, device_env: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        "HOME": SANDBOX_HOME,
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "TF_CPP_MIN_LOG_LEVEL": "1",
        # One worker a core: numpy's OpenBLAS would start a thread a core at import (on a 13-core
        # gVisor host, 1.2 of the 1.4 CPU-s `import numpy` cost).
        "OPENBLAS_NUM_THREADS": "1",
    }
    for key in PASSTHROUGH:
        if key in os.environ:
            env[key] = os.environ[key]
    if hostpython_path():
        env["PYTHONPATH"] = python_path()
    env.update(device_env or {})
    env["JAX_PLATFORMS"] = TABLE[platform].jax_platforms
    return env


def accelerator_nodes(platform: str, device_env: dict[str, str], dev: Path = Path("/dev")) -> list[str]:
    """The device nodes one worker's sandbox may open: its own GPU or TPU chip, and their control nodes.

    A student who edits CUDA_VISIBLE_DEVICES or TPU_VISIBLE_CHIPS inside the sandbox still finds
    only these. With no device named, every node of the platform is bound (one worker per host).
    """
    return TABLE[platform].device_nodes(device_env, dev)


def bwrap_command(platform: str, workdir: Path, limits: Limits, env: dict[str, str],
                  cache: CompilationCache | None = None, device_env: dict[str, str] | None = None,
                  seccomp_fd: int | None = None) -> list[str]:
    cmd = [
        bwrap_path() or "bwrap", *NAMESPACES,
        "--hostname", SANDBOX_HOSTNAME,
        "--proc", "/proc",
        "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
        "--size", str(limits.scratch_bytes), "--tmpfs", SANDBOX_HOME,
    ]
    for root in _readonly_roots():
        if os.path.islink(root) and root.count("/") == 1:  # merged-/usr symlinks such as /bin
            cmd += ["--symlink", os.readlink(root), root]
        else:
            cmd += ["--ro-bind", root, root]
    # A /dev of our own, read-only but for a size-capped /dev/shm (bwrap's --dev is an uncapped tmpfs).
    cmd += ["--perms", "0755", "--size", str(1 << 20), "--tmpfs", "/dev"]
    for name in BASIC_DEVICES:
        cmd += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    for node in accelerator_nodes(platform, device_env or {}):
        cmd += ["--dev-bind", node, "/dev/" + os.path.relpath(node, "/dev")]
    for link, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        cmd += ["--symlink", target, f"/dev/{link}"]
    cmd += ["--dir", "/dev/shm", "--remount-ro", "/dev",
            "--perms", "1777", "--size", str(limits.scratch_bytes), "--tmpfs", "/dev/shm"]
    cmd += TABLE[platform].binds
    cmd += [
        "--ro-bind", str(workdir / "etc" / "passwd"), "/etc/passwd",
        "--ro-bind", str(workdir / "etc" / "group"), "/etc/group",
        "--ro-bind", str(workdir / "etc" / "hosts"), "/etc/hosts",
        "--ro-bind", str(workdir / "etc" / "nsswitch.conf"), "/etc/nsswitch.conf",
        "--ro-bind", str(KERNEL_DIR), f"{SANDBOX_GRADER}/kernel",
        "--ro-bind", str(workdir / "in"), f"{SANDBOX_GRADER}/in",
        "--bind", str(workdir / "out"), f"{SANDBOX_GRADER}/out",
    ]
    if cache is not None:
        cmd += ["--bind" if cache.writable else "--ro-bind", str(cache.path), SANDBOX_CACHE]
        if cache.writable:
            cmd += ["--bind-try", str(cache.fonts), SANDBOX_FONT_CACHE]
        else:
            for font_list in sorted(cache.fonts.glob("fontlist-*.json")):
                if font_list.is_file() and not font_list.is_symlink():
                    cmd += ["--ro-bind", str(font_list), f"{SANDBOX_FONT_CACHE}/{font_list.name}"]
    if seccomp_fd is not None:
        cmd += ["--seccomp", str(seccomp_fd)]
    # Last: the root tmpfs bwrap builds (uncapped) becomes read-only once every mount point exists.
    cmd += ["--remount-ro", "/", "--chdir", SANDBOX_HOME, "--clearenv"]
    for key, value in sorted(env.items()):
        cmd += ["--setenv", key, value]
    return cmd


# What bwrap runs with. Its forked init is pid 1 in the sandbox, whose environment and command
# line the student can read in /proc/1: so no grader variable reaches it, and its options
# (host paths, the sandbox's variables) come from a file descriptor, not the command line.
LAUNCH_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


def open_written(path: Path, data: bytes) -> int:
    """Write `data` to `path`, and return a descriptor that reads it (for bwrap, which takes FDs)."""
    path.write_bytes(data)
    return os.open(path, os.O_RDONLY | os.O_CLOEXEC)


def options_from_file(prefix: list[str], workdir: Path) -> tuple[list[str], int]:
    """bwrap's command `prefix` as `bwrap --args FD`, FD an open file holding its options."""
    fd = open_written(workdir / "bwrap.args", b"".join(arg.encode() + b"\0" for arg in prefix[1:]))
    return [prefix[0], "--args", str(fd)], fd


@dataclass(frozen=True)
class CompilationCache:
    """A JAX persistent compilation cache folder on the host, and matplotlib's font list beside it.

    A run of the lesson's visible code fills them (writable); every submission reads them
    (read-only), so correct answers skip compilation, no home rebuilds the font list (0.1
    CPU-s with 38 fonts, more where there are more), and no student can plant a program or
    a font entry for another.
    """
    path: Path
    writable: bool = False

    @property
    def fonts(self) -> Path:
        return self.path.with_name(f"{self.path.name}-matplotlib")

    def env(self, in_place: bool = False) -> dict[str, str]:
        """The variables of a run that uses the cache: mounted in the sandbox, or `in_place` (a run
        without the sandbox, trusted notebooks only, reads the host's folders themselves)."""
        where = {"JAX_COMPILATION_CACHE_DIR": str(self.path), "MPLCONFIGDIR": str(self.fonts)} if in_place else {
            "JAX_COMPILATION_CACHE_DIR": SANDBOX_CACHE}
        return {**where,
                "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
                # Lesson programs compile in milliseconds: keep every one when filling; when
                # reading, an unreachable threshold stops JAX from even trying to write.
                "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0" if self.writable else "1e9",
                "JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES": "none"}

