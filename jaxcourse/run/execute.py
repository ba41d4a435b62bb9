"""Execute one notebook in a single-use sandbox on a requested JAX platform.

A `Sandbox` puts together the run layer's parts: a working folder (workdirs), the bubblewrap
command (bubblewrap, seccomp), its limits (limits), the runner and its kernel (runner), and the
supervisor that watches the run and says how it ended (supervise). `RunSettings.spec` is the one
place a `SandboxSpec` is built.
"""
from __future__ import annotations

import functools
import os
import subprocess
import sys
from dataclasses import dataclass, field, replace

import nbformat

from . import safefs, seccomp
from .bubblewrap import (LAUNCH_ENV, SANDBOX_GRADER, SANDBOX_HOME, SANDBOX_HOSTNAME, CompilationCache,
                         SandboxUnavailable, bwrap_command, open_written, options_from_file, python_path,
                         require_sandbox, sandbox_env)
from .limits import Cgroup, Limits, launch_command
from .platforms import TABLE
from .runner import KERNEL_DIR, SANDBOX_KERNEL_DIR, runner_command
from .supervise import Execution, Output, kill, supervise
from .workdirs import locked_run_folder

# kernel/figures/jaxcourse_figures.py: a matplotlib backend that builds figures but never draws them.
UNDRAWN_FIGURES = {"MPLBACKEND": "module://jaxcourse_figures"}


class PlatformUnavailable(RuntimeError):
    pass


class BackendUnavailable(RuntimeError):
    """A backend cannot do what was asked of it here (Ray is not installed, a submission for the
    in-process backend)."""


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


class Sandbox:
    """A single-use sandboxed notebook runner.

    It starts ahead of time: its kernel boots and imports `spec.preimport` while other
    submissions run. `run` hands it exactly one notebook; afterwards it is discarded, kernel and all.
    """

    def __init__(self, spec: SandboxSpec = SandboxSpec()):
        if spec.sandbox:
            require_sandbox()
        self.spec, limits = spec, spec.limits
        workdir, self.lock = locked_run_folder()
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
                env.update(UNDRAWN_FIGURES, PYTHONPATH=python_path(f"{SANDBOX_GRADER}/kernel/figures"))
            try:
                filter_fd = None if spec.ip_sockets else open_written(workdir / "seccomp.bpf",
                                                                        seccomp.refuse_ip_sockets())
            except seccomp.Unsupported as exc:
                raise SandboxUnavailable(str(exc)) from None
            prefix, args_fd = options_from_file(
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
            if spec.cache is not None:
                env.update(spec.cache.env(in_place=True))
            if not spec.draw_figures:
                env.update(UNDRAWN_FIGURES, PYTHONPATH=python_path(str(KERNEL_DIR / "figures")))
            prefix = []
            runner, source, target, kernel_dir = (
                str(KERNEL_DIR / "run_notebook.py"), str(workdir / "in" / "submission.ipynb"),
                str(workdir / "out" / "executed.ipynb"), str(workdir / "kernel"))
            run_env, cwd, pass_fds = env, home, ()
        self.source = workdir / "in" / "submission.ipynb"
        cmd = [*prefix, *runner_command(runner, source, target, limits.cell_timeout, limits.output_bytes,
                                        spec.preimport, kernel_dir)]
        self.cgroup = Cgroup(limits)
        try:
            self.proc = subprocess.Popen(
                launch_command(cmd, limits, self.cgroup), env=run_env, cwd=cwd, pass_fds=pass_fds,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
            )
        finally:
            for fd in pass_fds:
                os.close(fd)
        self.output = Output(self.proc)
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
            except OSError:  # the runner already died; supervise() reports why
                pass
            return supervise(self.proc, self.output, self.spec.limits, self.cgroup, self.workdir / "out")
        finally:
            self.discard()

    def discard(self) -> None:
        if self.closed:
            return
        self.closed = True
        kill(self.proc)
        self.output.join()
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                stream.close()
            except OSError:
                pass
        self.cgroup.close()
        safefs.remove_tree(self.workdir)
        os.close(self.lock)
