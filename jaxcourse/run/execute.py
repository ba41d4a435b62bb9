"""Execute one notebook inside a bubblewrap sandbox on a requested JAX platform.

The sandbox sees the Python installation read-only, a private tmpfs home, one input
file and one output folder. It has no network, its own pid namespace, no capabilities,
and no view of the course folder. Memory and process count are capped with cgroups
where the host allows it, and by a watchdog otherwise.
"""
from __future__ import annotations

import fcntl
import functools
import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field, replace
from pathlib import Path

import nbformat
import psutil

from . import safefs, seccomp
from .platforms import TABLE

KERNEL_DIR = Path(__file__).resolve().parents[1] / "kernel"  # the code that runs inside the sandbox
SANDBOX_HOME = "/home/student"
SANDBOX_GRADER = "/grader"
SANDBOX_HOSTNAME = "sandbox"
# kernel/figures/jaxcourse_figures.py: a matplotlib backend that builds figures but never draws them.
UNDRAWN_FIGURES = {"MPLBACKEND": "module://jaxcourse_figures"}
SANDBOX_CACHE = "/grader/jax-cache"
SANDBOX_FONT_CACHE = f"{SANDBOX_HOME}/.cache/matplotlib"  # where matplotlib keeps its font list
SANDBOX_KERNEL_DIR = "/tmp/jaxcourse-kernel"  # the kernel's sockets: on the sandbox's own /tmp
# The namespaces every sandbox gets; sandbox_problem() tries exactly these before anything runs.
NAMESPACES = ("--unshare-user", "--uid", "65534", "--gid", "65534",
              "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--unshare-cgroup-try",
              "--disable-userns", "--die-with-parent", "--new-session", "--cap-drop", "ALL")
UNSAFE_HINT = "to run trusted notebooks only (your own), pass --unsafe-no-sandbox"
OUT_ENTRIES = 1000  # files and folders the output folder may hold; the runner writes one
BASIC_DEVICES = ("null", "zero", "full", "random", "urandom")
# Host variables that may cross into the sandbox, by exact name: where the accelerator
# runtime and its libraries are, and how XLA is tuned. Nothing else does.
PASSTHROUGH = ("LD_LIBRARY_PATH", "XLA_FLAGS", "XLA_PYTHON_CLIENT_MEM_FRACTION", "XLA_PYTHON_CLIENT_ALLOCATOR",
               "TPU_LIBRARY_PATH", "TPU_ACCELERATOR_TYPE", "TPU_SKIP_MDS_QUERY", "TPU_WORKER_ID",
               "TPU_WORKER_HOSTNAMES", "TPU_RUNTIME_METRICS_PORTS", "NVIDIA_DRIVER_CAPABILITIES")
# Outputs an executed notebook may hold: the runner keeps at most 11,000 (kernel/run_notebook.py's
# MAX_OUTPUTS) and its own notes; a file holding more was written by the submission.
MAX_OUTPUTS_READ = 12_000
# How the notebook runner's exit status explains a run that ended early (see kernel/run_notebook.py).
# Status 3 (the kernel did not start) is the machine's failure, not the student's: KernelDidNotStart.
EXIT_NO_KERNEL = 3
RUNNER_EXITS = {4: (True, "a cell ran past its time limit and the kernel did not stop"),  # (timed out, why)
                5: (False, "the kernel died")}


class SandboxUnavailable(RuntimeError):
    pass


class PlatformUnavailable(RuntimeError):
    pass


class BackendUnavailable(RuntimeError):
    """A backend cannot do what was asked of it here (Ray is not installed, a submission for the
    in-process backend)."""


class KernelDidNotStart(SandboxUnavailable):
    """The kernel never ran a cell: an infrastructure failure, graded again on the next run."""


@functools.cache  # once per platform and process; a failure is not cached
def preflight(platform: str) -> str:
    """Fail fast, before any grading, when JAX cannot start the requested platform here."""
    probe = "import jax; print(jax.default_backend())"
    # What a run gets (a TPU VM's TPU_* settings spare libtpu a metadata query that hangs offline).
    env = {**sandbox_env(platform), "PATH": "/usr/bin:/bin", "HOME": "/tmp", "TF_CPP_MIN_LOG_LEVEL": "3"}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
    backend = done.stdout.strip().splitlines()[-1] if done.returncode == 0 and done.stdout.strip() else ""
    if backend != platform:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise PlatformUnavailable(
            f"--platform {platform} was requested, but JAX cannot use it on this machine "
            f"({'it started ' + backend if backend else last}). Nothing was graded.")
    return backend


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


@dataclass(frozen=True)
class Limits:
    cell_timeout: int = 120          # seconds; JIT compilation of a lesson cell fits easily
    notebook_timeout: int = 900      # seconds of wall clock for the whole notebook
    memory_bytes: int = 4 * 2**30
    max_processes: int = 1024       # tasks, threads included: XLA starts a thread pool per core
    output_bytes: int = 8 * 2**20    # printed output kept per notebook
    scratch_bytes: int = 512 * 2**20  # each of the sandbox's tmpfs: home, /tmp and /dev/shm

    @property
    def out_bytes(self) -> int:
        """What the output folder may hold: the executed notebook with its outputs, and no more."""
        return self.output_bytes * 4 + 64 * 2**20


@dataclass
class Execution:
    notebook: nbformat.NotebookNode | None   # the executed notebook, None when unreadable
    fatal: str = ""                          # why the run ended early, if it did
    timed_out: bool = False                  # the notebook's wall-clock limit was hit
    limit_hit: str = ""                      # "memory", "processes" or "output" when a cap ended it
    seconds: float = 0.0
    stderr_tail: str = field(default="", repr=False)
    node: str = ""                           # the Ray node that ran it; empty when it ran on this host


@dataclass(frozen=True)
class SandboxSpec:
    """Everything that decides how a sandbox runs a notebook."""
    platform: str = "cpu"
    limits: Limits = field(default_factory=Limits)
    device_env: dict[str, str] = field(default_factory=dict)  # the worker's own device (RunSettings.spec)
    sandbox: bool = True                                      # False: trusted notebooks only
    preimport: tuple[str, ...] = ()
    cache: "CompilationCache | None" = None
    draw_figures: bool = False  # only to record a lesson's figures; graded runs skip the drawing
    ip_sockets: bool = True     # False: socket(AF_INET/AF_INET6) fails in the sandbox, as on a TPU host


@dataclass(frozen=True)
class RunSettings:
    """How every notebook of one run executes; `spec` is the one place a SandboxSpec is built.

    One frozen value, so that it crosses worker threads and Ray nodes whole."""
    platform: str = "cpu"
    limits: Limits = field(default_factory=Limits)
    sandbox: bool = True                  # False: trusted notebooks only
    preimport: tuple[str, ...] = ()       # what a started kernel imports before its notebook arrives
    draw_figures: bool = False            # only to record a lesson's figures
    warm: bool = True                     # start each worker's next sandbox while it grades
    lesson_env: tuple[tuple[str, str], ...] = ()  # what the lesson adds to every run (its virtual devices)
    ip_sockets: bool = True               # False: refuse IP sockets in every sandbox (seccomp.py)

    def spec(self, slot: int | None = 0, cache: CompilationCache | None = None) -> SandboxSpec:
        """The sandbox of worker `slot`, confined to that device (None: to none of its own, as a Ray
        task that was given no accelerator), mounting `cache` if there is one."""
        lesson_env = dict(self.lesson_env)
        platform = TABLE[self.platform]
        device_env = lesson_env if slot is None else platform.worker_env(slot, lesson_env)
        limits = replace(self.limits, memory_bytes=self.limits.memory_bytes + platform.runtime_memory)
        return SandboxSpec(self.platform, limits, device_env, self.sandbox, self.preimport, cache,
                           self.draw_figures, self.ip_sockets)


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


def host_python_path() -> list[str]:
    """The folders this Python finds packages in through PYTHONPATH (a TPU VM provides JAX so), which
    every run needs too."""
    return [path for path in os.environ.get("PYTHONPATH", "").split(os.pathsep)
            if os.path.isabs(path) and os.path.isdir(path)]


def _python_path(*first: str) -> str:
    return os.pathsep.join([*first, *host_python_path()])


def _readonly_roots() -> list[str]:
    """The directories the kernel needs: the interpreter, the venv, PYTHONPATH and system libraries."""
    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
             sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"], *host_python_path()}
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
    }
    for key in PASSTHROUGH:
        if key in os.environ:
            env[key] = os.environ[key]
    if host_python_path():
        env["PYTHONPATH"] = _python_path()
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


def _memfd_bytes(pid: int, seen: set[tuple[int, int]]) -> int:
    """Memory held by a process's memfds (memfd_create), which no RSS counts until mapped."""
    total = 0
    try:
        fds = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return 0
    for fd in fds:
        path = f"/proc/{pid}/fd/{fd}"
        try:
            if not os.readlink(path).startswith("/memfd:"):
                continue
            info = os.stat(path)
        except OSError:
            continue
        if (info.st_dev, info.st_ino) not in seen:  # one memfd open in several processes counts once
            seen.add((info.st_dev, info.st_ino))
            total += info.st_blocks * 512
    return total


# Mappings of an accelerator's memory: resident as the kernel counts it (a TPU runtime maps its chip's
# 16 GiB), but no host memory, and no memory cgroup charges them.
DEVICE_MAPPINGS = ("anon_inode:[vfio-device]", "/dev/accel", "/dev/vfio/", "/dev/nvidia")


def device_mapped_bytes(maps: str) -> int:
    """The size of the device mappings listed in a /proc/PID/maps text."""
    total = 0
    for line in maps.splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and fields[5].startswith(DEVICE_MAPPINGS):
            start, end = fields[0].split("-")
            total += int(end, 16) - int(start, 16)
    return total


def _host_resident(proc: psutil.Process) -> int:
    rss = proc.memory_info().rss
    try:
        with open(f"/proc/{proc.pid}/maps") as maps:
            return max(0, rss - device_mapped_bytes(maps.read()))
    except OSError:
        return rss


def _tree_usage(root: psutil.Process) -> tuple[int, int]:
    """Host memory (resident, less device mappings, and memfds) and tasks (threads) of a process tree."""
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0, 0
    memory, tasks, memfds = 0, 0, set()
    for proc in procs:
        try:
            memory += _host_resident(proc) + _memfd_bytes(proc.pid, memfds)
            tasks += proc.num_threads()  # threads count toward the task cap, as in the pids cgroup
        except psutil.Error:
            pass
    return memory, tasks


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
    return [sys.executable, "-S", "-c", LAUNCHER, str(limits.out_bytes), *procs, "--", *cmd]


# What bwrap runs with. Its forked init is pid 1 in the sandbox, whose environment and command
# line the student can read in /proc/1: so no grader variable reaches it, and its options
# (host paths, the sandbox's variables) come from a file descriptor, not the command line.
LAUNCH_ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


def _open_written(path: Path, data: bytes) -> int:
    """Write `data` to `path`, and return a descriptor that reads it (for bwrap, which takes FDs)."""
    path.write_bytes(data)
    return os.open(path, os.O_RDONLY | os.O_CLOEXEC)


def _options_from_file(prefix: list[str], workdir: Path) -> tuple[list[str], int]:
    """bwrap's command `prefix` as `bwrap --args FD`, FD an open file holding its options."""
    fd = _open_written(workdir / "bwrap.args", b"".join(arg.encode() + b"\0" for arg in prefix[1:]))
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

    def env(self) -> dict[str, str]:
        return {"JAX_COMPILATION_CACHE_DIR": SANDBOX_CACHE,
                "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
                # Lesson programs compile in milliseconds: keep every one when filling; when
                # reading, an unreachable threshold stops JAX from even trying to write.
                "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0" if self.writable else "1e9",
                "JAX_PERSISTENT_CACHE_ENABLE_XLA_CACHES": "none"}


RUNS_PREFIX = "jaxcourse-runs-"


def _own_runs_folders(tmp: Path) -> list[Path]:
    """This account's runs folders in `tmp`: real folders (not links) that it owns, mode 0700.
    Another account may create anything under these names, and none of it passes."""
    uid, found = os.geteuid(), []
    with os.scandir(tmp) as entries:
        for entry in entries:
            if entry.name.startswith(f"{RUNS_PREFIX}{uid}-"):
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISDIR(info.st_mode) and info.st_uid == uid and stat.S_IMODE(info.st_mode) == 0o700:
                    found.append(Path(entry.path))
    return sorted(found)


@functools.cache  # once per process: every sandbox of a grader shares it
def runs_folder() -> Path:
    """Where this account's sandboxes keep their working folders (and the kernels their sockets):
    a folder of its own in the temporary folder, under a random name made with mkdtemp (0700),
    and reused by the next grader, which removes the folders a killed one left."""
    tmp = Path(tempfile.gettempdir())
    mode = tmp.stat().st_mode
    if mode & 0o022 and not mode & stat.S_ISVTX:  # others could rename our folder away and put theirs there
        raise SandboxUnavailable(f"the temporary folder {tmp} is writable by other accounts and not sticky, so they "
                                 "could replace the grader's run folders there: set TMPDIR to a folder of your own")
    own = _own_runs_folders(tmp)
    return own[0] if own else Path(tempfile.mkdtemp(prefix=f"{RUNS_PREFIX}{os.geteuid()}-", dir=tmp))


def _locked_run_folder() -> tuple[Path, int]:
    """A new working folder, and an open lock that marks it in use for as long as this process lives."""
    runs = runs_folder()
    remove_abandoned_runs()
    workdir = Path(tempfile.mkdtemp(prefix="run-", dir=runs))
    lock = os.open(workdir / ".lock", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    fcntl.flock(lock, fcntl.LOCK_EX)
    return workdir, lock


@functools.cache  # once per process: the folders of graders that were killed before they could clean up
def remove_abandoned_runs(grace_seconds: float = 60.0) -> int:
    """Remove the unlocked run folders in every runs folder of this account (two graders that start
    together on a fresh machine may each make one). Nothing that is not this account's own folder is
    followed or removed."""
    removed, uid = 0, os.geteuid()
    for workdir in (run for runs in _own_runs_folders(runs_folder().parent) for run in runs.glob("run-*")):
        try:
            info = workdir.lstat()
        except OSError:
            continue
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
            continue
        try:
            lock = os.open(workdir / ".lock", os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC)
        except FileNotFoundError:  # a folder made a moment ago, or by a grader killed at once
            if time.time() - info.st_mtime <= grace_seconds:
                continue
        except OSError:
            continue
        else:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # a live grader holds it
                continue
            finally:
                os.close(lock)
        safefs.remove_tree(workdir)
        removed += 1
    return removed


class Sandbox:
    """A single-use sandboxed notebook runner.

    It starts ahead of time: its kernel boots and imports `spec.preimport` while other
    submissions run. `run` hands it exactly one notebook; afterwards it is discarded, kernel and all.
    """

    def __init__(self, spec: SandboxSpec = SandboxSpec()):
        if spec.sandbox:
            require_sandbox()
        self.spec, limits = spec, spec.limits
        workdir, self.lock = _locked_run_folder()
        self.workdir = workdir
        for sub in ("in", "out", "etc"):
            (workdir / sub).mkdir()
        os.chmod(workdir / "out", 0o777)
        (workdir / "etc" / "passwd").write_text(f"student:x:65534:65534:student:{SANDBOX_HOME}:/bin/sh\n")
        (workdir / "etc" / "group").write_text("student:x:65534:\n")
        # The sandbox's own name resolves to loopback, as on any machine: jax.distributed's CPU
        # collectives (gloo) look up the hostname to find their address.
        (workdir / "etc" / "hosts").write_text(f"127.0.0.1 localhost {SANDBOX_HOSTNAME}\n::1 localhost\n")
        (workdir / "etc" / "nsswitch.conf").write_text("passwd: files\ngroup: files\nhosts: files\n")
        env = sandbox_env(spec.platform, spec.device_env)
        if spec.sandbox:
            if spec.cache is not None:
                env.update(spec.cache.env())
            if not spec.draw_figures:
                env.update(UNDRAWN_FIGURES, PYTHONPATH=_python_path(f"{SANDBOX_GRADER}/kernel/figures"))
            try:
                filter_fd = None if spec.ip_sockets else _open_written(workdir / "seccomp.bpf",
                                                                        seccomp.refuse_ip_sockets())
            except seccomp.Unsupported as exc:
                raise SandboxUnavailable(str(exc)) from None
            prefix, args_fd = _options_from_file(
                bwrap_command(spec.platform, workdir, limits, env, spec.cache, spec.device_env, filter_fd), workdir)
            runner, source, target, kernel_dir = (
                f"{SANDBOX_GRADER}/kernel/run_notebook.py", f"{SANDBOX_GRADER}/in/submission.ipynb",
                f"{SANDBOX_GRADER}/out/executed.ipynb", SANDBOX_KERNEL_DIR)
            run_env, cwd = LAUNCH_ENV, workdir
            pass_fds = (args_fd,) if filter_fd is None else (args_fd, filter_fd)
        else:
            home = workdir / "home"
            home.mkdir()
            env["HOME"] = str(home)
            if not spec.draw_figures:
                env.update(UNDRAWN_FIGURES, PYTHONPATH=_python_path(str(KERNEL_DIR / "figures")))
            prefix = []
            runner, source, target, kernel_dir = (
                str(KERNEL_DIR / "run_notebook.py"), str(workdir / "in" / "submission.ipynb"),
                str(workdir / "out" / "executed.ipynb"), str(workdir / "kernel"))
            run_env, cwd, pass_fds = env, home, ()
        self.source = workdir / "in" / "submission.ipynb"
        cmd = [*prefix, sys.executable, runner, source, target, str(limits.cell_timeout), str(limits.output_bytes),
               ",".join(spec.preimport), kernel_dir]
        self.cgroup = _Cgroup(limits)
        try:
            self.proc = subprocess.Popen(
                _launch_command(cmd, limits, self.cgroup), env=run_env, cwd=cwd, pass_fds=pass_fds,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            )
        finally:
            for fd in pass_fds:
                os.close(fd)
        self.stdout_chunks: list[bytes] = []
        self.stderr_chunks: list[bytes] = []
        self.readers = [threading.Thread(target=_drain, args=(self.proc.stdout, self.stdout_chunks), daemon=True),
                        threading.Thread(target=_drain, args=(self.proc.stderr, self.stderr_chunks), daemon=True)]
        for reader in self.readers:
            reader.start()
        self.closed = False

    def alive(self) -> bool:
        return self.proc.poll() is None

    @classmethod
    def warm_or_new(cls, warm: "Sandbox | None", spec: SandboxSpec) -> "Sandbox":
        """The sandbox started ahead, or a new one when there is none or it died (never used then)."""
        if warm is not None and warm.alive():
            return warm
        if warm is not None:
            warm.discard()
        return cls(spec)

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
        safefs.remove_tree(self.workdir)
        os.close(self.lock)

    def _supervise(self) -> Execution:
        proc, limits, cgroup, out = self.proc, self.spec.limits, self.cgroup, self.workdir / "out"
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
                    rss, tasks = _tree_usage(watched)
                    if rss > limits.memory_bytes:
                        limit_hit = "memory"
                        break
                    if tasks > limits.max_processes:
                        limit_hit = "processes"
                        break
                size, entries = safefs.tree_usage(out, OUT_ENTRIES)
                if size > limits.out_bytes or entries > OUT_ENTRIES:
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
        stderr = b"".join(self.stderr_chunks).decode("utf-8", "replace")
        fatal = ""
        if limit_hit == "memory":
            fatal = f"memory limit of {limits.memory_bytes // 2**20} MiB exceeded"
        elif limit_hit == "processes":
            fatal = f"process limit of {limits.max_processes} exceeded"
        elif limit_hit == "output":
            fatal = "output size limit exceeded"
        elif timed_out:
            fatal = f"notebook ran longer than {limits.notebook_timeout}s"
        elif proc.returncode == EXIT_NO_KERNEL:
            failure = KernelDidNotStart("the kernel did not start")
            failure.add_note(f"runner stderr (for the grader's log only):\n{stderr[-2000:]}")
            raise failure
        elif proc.returncode in RUNNER_EXITS:
            timed_out, fatal = RUNNER_EXITS[proc.returncode]
        elif proc.returncode != 0:
            fatal = f"the notebook runner exited with status {proc.returncode}"
        notebook = None
        try:
            raw = safefs.read_regular(out / "executed.ipynb", limits.out_bytes)
            data = json.loads(raw)
            if count_outputs(data) > MAX_OUTPUTS_READ:  # before nbformat spends per output
                fatal = f"the executed notebook holds more than {MAX_OUTPUTS_READ} outputs, more than the runner keeps"
            elif safefs.deeper_than(data, safefs.MAX_JSON_DEPTH):  # before anything copies it recursively
                fatal = f"the executed notebook's JSON nests deeper than {safefs.MAX_JSON_DEPTH} levels"
            else:
                notebook = nbformat.reads(raw.decode("utf-8"), as_version=4)
        except Exception:  # missing, a link, too large or not a notebook: no result
            notebook = None
        return Execution(notebook=notebook, fatal=fatal, timed_out=timed_out, limit_hit=limit_hit,
                         seconds=seconds, stderr_tail=stderr[-4000:])


def count_outputs(data: object) -> int:
    """How many outputs the cells of a notebook's JSON hold."""
    cells = data.get("cells") if isinstance(data, dict) else None
    return sum(len(cell["outputs"]) for cell in cells if isinstance(cell, dict) and isinstance(cell.get("outputs"), list)
               ) if isinstance(cells, list) else 0


def _drain(stream, chunks: list[bytes]) -> None:
    """Keep the start of a stream, for the grader's log only; nothing in it is interpreted."""
    kept = 0
    try:
        for chunk in iter(lambda: stream.read(65536), b""):
            if kept < 256 * 1024:
                chunks.append(chunk)
                kept += len(chunk)
    except (OSError, ValueError):  # closed by discard() after a sandbox that would not die
        pass
