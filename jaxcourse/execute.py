"""Execute one notebook inside a bubblewrap sandbox on a requested JAX platform.

The sandbox sees the Python installation read-only, a private tmpfs home, one input
file and one output folder. It has no network, its own pid namespace, no capabilities,
and no view of the course folder. Memory and process count are capped with cgroups
where the host allows it, and by a watchdog otherwise.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
import psutil

KERNEL_DIR = Path(__file__).parent / "kernel"
SANDBOX_HOME = "/home/student"
SANDBOX_GRADER = "/grader"
SANDBOX_CACHE = "/grader/jax-cache"
ACCELERATOR_DEVICES = {
    "gpu": ["/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools", "/dev/nvidia-modeset",
            *[f"/dev/nvidia{i}" for i in range(16)], "/dev/dri"],
    "tpu": [*[f"/dev/accel{i}" for i in range(16)], "/dev/vfio"],
}
# Variables the grader may set for device placement; nothing else crosses into the sandbox.
PASSTHROUGH_PREFIXES = ("TPU_", "CUDA_", "XLA_", "ALLOW_MULTIPLE_LIBTPU_LOAD", "NVIDIA_", "LD_LIBRARY_PATH")


class SandboxUnavailable(RuntimeError):
    pass


@dataclass(frozen=True)
class Limits:
    cell_timeout: int = 120          # seconds; JIT compilation of a lesson cell fits easily
    notebook_timeout: int = 900      # seconds of wall clock for the whole notebook
    memory_bytes: int = 4 * 2**30
    max_processes: int = 1024       # tasks, threads included: XLA starts a thread pool per core
    output_bytes: int = 8 * 2**20    # printed output kept per notebook
    scratch_bytes: int = 512 * 2**20  # the sandbox's writable tmpfs home and /tmp


@dataclass
class Execution:
    notebook: nbformat.NotebookNode | None   # the executed notebook, None when unreadable
    fatal: str = ""                          # why the run ended early, if it did
    timed_out: bool = False                  # the notebook's wall-clock limit was hit
    limit_hit: str = ""                      # "memory", "processes" or "output" when a cap ended it
    seconds: float = 0.0
    stderr_tail: str = field(default="", repr=False)


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def _readonly_roots() -> list[str]:
    """The directories the kernel needs: the interpreter, the venv and system libraries."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"]}
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


def sandbox_env(platform: str, extra_env: dict[str, str] | None = None) -> dict[str, str]:
    env = {
        "HOME": SANDBOX_HOME,
        "PATH": f"{Path(sys.executable).parent}:/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "JAX_PLATFORMS": platform,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "TF_CPP_MIN_LOG_LEVEL": "1",
    }
    for key, value in os.environ.items():
        if key.startswith(PASSTHROUGH_PREFIXES):
            env[key] = value
    env.update(extra_env or {})
    env["JAX_PLATFORMS"] = platform
    return env


def bwrap_command(platform: str, workdir: Path, limits: Limits, env: dict[str, str],
                  cache: CompilationCache | None = None) -> list[str]:
    cmd = [
        bwrap_path() or "bwrap",
        "--unshare-user", "--uid", "65534", "--gid", "65534",
        "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
        "--disable-userns", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
        "--hostname", "sandbox",
        "--proc", "/proc", "--dev", "/dev",
        "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
        "--size", str(limits.scratch_bytes), "--tmpfs", SANDBOX_HOME,
    ]
    for root in _readonly_roots():
        if os.path.islink(root) and root.count("/") == 1:  # merged-/usr symlinks such as /bin
            cmd += ["--symlink", os.readlink(root), root]
        else:
            cmd += ["--ro-bind", root, root]
    for device in ACCELERATOR_DEVICES.get(platform, []):
        cmd += ["--dev-bind-try", device, device]
    if platform == "gpu":
        cmd += ["--ro-bind-try", "/proc/driver/nvidia", "/proc/driver/nvidia"]
    cmd += [
        "--ro-bind", str(workdir / "etc" / "passwd"), "/etc/passwd",
        "--ro-bind", str(workdir / "etc" / "group"), "/etc/group",
        "--ro-bind", str(KERNEL_DIR), f"{SANDBOX_GRADER}/kernel",
        "--ro-bind", str(workdir / "in"), f"{SANDBOX_GRADER}/in",
        "--bind", str(workdir / "out"), f"{SANDBOX_GRADER}/out",
    ]
    if cache is not None:
        cmd += ["--bind" if cache.writable else "--ro-bind", str(cache.path), SANDBOX_CACHE]
    cmd += ["--chdir", SANDBOX_HOME, "--clearenv"]
    for key, value in sorted(env.items()):
        cmd += ["--setenv", key, value]
    return cmd


class _Cgroup:
    """A throwaway cgroup (v2, or v1 memory+pids) that caps one sandbox; absent if the host forbids it."""

    def __init__(self, limits: Limits):
        self.dirs: list[Path] = []
        self.oom_files: list[Path] = []
        self.pids_events: list[Path] = []
        name = f"jaxcourse-{uuid.uuid4().hex[:12]}"
        v2 = Path("/sys/fs/cgroup")
        try:
            if (v2 / "cgroup.controllers").exists():
                own = Path(open("/proc/self/cgroup").read().split("::", 1)[1].strip().lstrip("/"))
                parent = v2 / own
                group = parent / name
                group.mkdir()
                self.dirs.append(group)
                (group / "memory.max").write_text(str(limits.memory_bytes))
                if (group / "memory.swap.max").exists():
                    (group / "memory.swap.max").write_text("0")
                (group / "pids.max").write_text(str(limits.max_processes))
                self.oom_files.append(group / "memory.events")
                self.pids_events.append(group / "pids.events")
            else:
                for controller, setting, value in (("memory", "memory.limit_in_bytes", limits.memory_bytes),
                                                   ("pids", "pids.max", limits.max_processes)):
                    group = Path("/sys/fs/cgroup") / controller / name
                    group.mkdir()
                    self.dirs.append(group)
                    (group / setting).write_text(str(value))
                    if controller == "memory":
                        self.oom_files.append(group / "memory.oom_control")
                    else:
                        self.pids_events.append(group / "pids.events")
        except OSError:
            self.close()
            self.dirs = []

    @property
    def active(self) -> bool:
        return bool(self.dirs)

    @staticmethod
    def _counter(paths: list[Path], name: str) -> int:
        total = 0
        for path in paths:
            try:
                counts = dict(line.split()[:2] for line in path.read_text().splitlines() if len(line.split()) >= 2)
                total += int(counts.get(name, 0))
            except (OSError, ValueError):
                pass
        return total

    def memory_exhausted(self) -> bool:
        return self._counter(self.oom_files, "oom_kill") > 0

    def processes_exhausted(self) -> bool:
        return self._counter(self.pids_events, "max") > 0

    def close(self) -> None:
        for group in reversed(self.dirs):
            for _ in range(50):
                try:
                    group.rmdir()
                    break
                except OSError:
                    for pid in (group / "cgroup.procs").read_text().split() if (group / "cgroup.procs").exists() else []:
                        try:
                            os.kill(int(pid), 9)
                        except OSError:
                            pass
                    time.sleep(0.1)


def _tree_usage(root: psutil.Process) -> tuple[int, int]:
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0, 0
    rss = 0
    for proc in procs:
        try:
            rss += proc.memory_info().rss
        except psutil.Error:
            pass
    return rss, len(procs)


def _dir_bytes(path: Path, cap_entries: int = 10000) -> int:
    total, seen = 0, 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            seen += 1
            if seen > cap_entries:
                return sys.maxsize
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


# Joins the cgroups and sets rlimits, then becomes the sandbox. A separate exec rather than
# preexec_fn, which is unsafe when the grader runs workers in threads.
LAUNCHER = """
import os, resource, sys
split = sys.argv.index("--")
file_cap, procs_files = int(sys.argv[1]), sys.argv[2:split]
for procs in procs_files:
    with open(procs, "w") as handle:
        handle.write(str(os.getpid()))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
resource.setrlimit(resource.RLIMIT_FSIZE, (file_cap, file_cap))
os.execv(sys.argv[split + 1], sys.argv[split + 1:])
"""


def _launch_command(cmd: list[str], limits: Limits, cgroup: _Cgroup) -> list[str]:
    procs = [str(group / "cgroup.procs") for group in cgroup.dirs]
    return [sys.executable, "-S", "-c", LAUNCHER, str(limits.output_bytes * 4 + 64 * 2**20), *procs, "--", *cmd]


@dataclass(frozen=True)
class CompilationCache:
    """A JAX persistent compilation cache folder on the host.

    The instructor's solution fills it (writable); every submission reads it (read-only), so
    correct answers skip compilation and no student can plant a program for another.
    """
    path: Path
    writable: bool = False

    def env(self) -> dict[str, str]:
        return {"JAX_COMPILATION_CACHE_DIR": SANDBOX_CACHE,
                "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
                # Lesson programs compile in milliseconds: keep every one when filling; when
                # reading, an unreachable threshold stops JAX from even trying to write.
                "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0" if self.writable else "1e9",
                "JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES": "none"}


class Sandbox:
    """A single-use sandboxed notebook runner.

    It starts ahead of time: its kernel boots and imports `preimport` while other submissions
    run. `run` hands it exactly one notebook; afterwards it is discarded, kernel and all.
    """

    def __init__(self, platform: str, limits: Limits = Limits(), extra_env: dict[str, str] | None = None,
                 sandbox: bool = True, preimport: tuple[str, ...] = (), cache: CompilationCache | None = None):
        if sandbox and not bwrap_path():
            raise SandboxUnavailable("bubblewrap (bwrap) is not installed; install the 'bubblewrap' package")
        self.limits, self.sandbox = limits, sandbox
        self.workdir = workdir = Path(tempfile.mkdtemp(prefix="jaxcourse-run-"))
        for sub in ("in", "out", "etc"):
            (workdir / sub).mkdir()
        os.chmod(workdir / "out", 0o777)
        (workdir / "etc" / "passwd").write_text(f"student:x:65534:65534:student:{SANDBOX_HOME}:/bin/sh\n")
        (workdir / "etc" / "group").write_text("student:x:65534:\n")
        env = sandbox_env(platform, extra_env)
        if sandbox:
            if cache is not None:
                env.update(cache.env())
            prefix = bwrap_command(platform, workdir, limits, env, cache)
            runner, source, target = (f"{SANDBOX_GRADER}/kernel/run_notebook.py",
                                      f"{SANDBOX_GRADER}/in/submission.ipynb", f"{SANDBOX_GRADER}/out/executed.ipynb")
            run_env, cwd = None, workdir
        else:
            home = workdir / "home"
            home.mkdir()
            env["HOME"] = str(home)
            prefix = []
            runner, source, target = (str(KERNEL_DIR / "run_notebook.py"),
                                      str(workdir / "in" / "submission.ipynb"), str(workdir / "out" / "executed.ipynb"))
            run_env, cwd = env, home
        self.source = workdir / "in" / "submission.ipynb"
        cmd = [*prefix, sys.executable, runner, source, target, str(limits.cell_timeout), str(limits.output_bytes),
               ",".join(preimport)]
        self.cgroup = _Cgroup(limits)
        self.proc = subprocess.Popen(
            _launch_command(cmd, limits, self.cgroup), env=run_env, cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
        )
        self.stdout_chunks: list[bytes] = []
        self.stderr_chunks: list[bytes] = []
        self.readers = [threading.Thread(target=_drain, args=(self.proc.stdout, self.stdout_chunks), daemon=True),
                        threading.Thread(target=_drain, args=(self.proc.stderr, self.stderr_chunks), daemon=True)]
        for reader in self.readers:
            reader.start()
        self.closed = False

    def alive(self) -> bool:
        return self.proc.poll() is None

    def run(self, nb: nbformat.NotebookNode) -> Execution:
        """Execute `nb`, then discard the sandbox."""
        try:
            nbformat.write(nb, self.source)
            try:
                self.proc.stdin.write(b"run\n")
                self.proc.stdin.close()
            except OSError:  # the runner already died; _supervise reports why
                pass
            return self._supervise()
        finally:
            self.discard()

    def discard(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, 9)
            except OSError:
                pass
        self.proc.wait()
        for reader in self.readers:
            reader.join(timeout=5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self.cgroup.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def _supervise(self) -> Execution:
        proc, limits, cgroup, out = self.proc, self.limits, self.cgroup, self.workdir / "out"
        start = time.monotonic()
        limit_hit = ""
        timed_out = False
        watched = psutil.Process(proc.pid)
        try:
            while proc.poll() is None:
                if time.monotonic() - start > limits.notebook_timeout:
                    timed_out = True
                    break
                if not cgroup.active:
                    rss, count = _tree_usage(watched)
                    if rss > limits.memory_bytes:
                        limit_hit = "memory"
                        break
                    if count > limits.max_processes:
                        limit_hit = "processes"
                        break
                if _dir_bytes(out) > limits.output_bytes * 4 + 64 * 2**20:
                    limit_hit = "output"
                    break
                time.sleep(0.05)
        finally:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, 9)
                except OSError:
                    pass
            proc.wait()
            for reader in self.readers:
                reader.join(timeout=5)
            if cgroup.active and not limit_hit and proc.returncode != 0:
                limit_hit = "memory" if cgroup.memory_exhausted() else "processes" if cgroup.processes_exhausted() else ""
        seconds = time.monotonic() - start
        stdout = b"".join(self.stdout_chunks).decode("utf-8", "replace")
        stderr = b"".join(self.stderr_chunks).decode("utf-8", "replace")
        fatal = ""
        for line in stdout.splitlines():
            if line.startswith('{"fatal"'):
                try:
                    fatal = json.loads(line)["fatal"]
                except (ValueError, KeyError):
                    pass
        if proc.returncode not in (0, 3) and not (timed_out or limit_hit):
            fatal = fatal or f"the notebook runner exited with status {proc.returncode}"
        if limit_hit == "memory":
            fatal = f"memory limit of {limits.memory_bytes // 2**20} MiB exceeded"
        elif limit_hit == "processes":
            fatal = f"process limit of {limits.max_processes} exceeded"
        elif limit_hit == "output":
            fatal = "output size limit exceeded"
        elif timed_out:
            fatal = f"notebook ran longer than {limits.notebook_timeout}s"
        executed = out / "executed.ipynb"
        notebook = None
        if executed.is_file() and executed.stat().st_size <= limits.output_bytes * 4 + 64 * 2**20:
            try:
                notebook = nbformat.read(executed, as_version=4)
            except Exception:
                notebook = None
        return Execution(notebook=notebook, fatal=fatal, timed_out=timed_out, limit_hit=limit_hit,
                         seconds=seconds, stderr_tail=stderr[-4000:])


def _drain(stream, chunks: list[bytes]) -> None:
    kept = 0
    try:
        for chunk in iter(lambda: stream.read(65536), b""):
            if kept < 256 * 1024:
                chunks.append(chunk)
                kept += len(chunk)
    except (OSError, ValueError):  # closed by discard() after a sandbox that would not die
        pass


def execute_notebook(nb: nbformat.NotebookNode, platform: str, limits: Limits = Limits(),
                     extra_env: dict[str, str] | None = None, sandbox: bool = True,
                     cache: CompilationCache | None = None) -> Execution:
    """Run `nb` with papermill in a fresh kernel, started now, and return the executed notebook."""
    return Sandbox(platform, limits, extra_env, sandbox, cache=cache).run(nb)
