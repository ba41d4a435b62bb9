"""Run a notebook kernel-free, in this process: IPython without a kernel records each cell's
outputs as a kernel run leaves them, and `Process` gives each lesson JAX, an environment and a
working folder of its own. `InProcess` offers it as a backend for the instructor's notebooks.

For a host where no Jupyter kernel can start (no sockets) and no sandbox can (no user
namespaces), and whose chip one process at a time may hold. Trusted notebooks only: nothing
is sandboxed, so submissions are refused. Nothing here imports nbgrader, papermill or nbclient.
"""
from __future__ import annotations

import contextlib
import copy
import gc
import io
import json
import os
import signal
import sys
import tempfile
import time

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from nbformat.notebooknode import NotebookNode
from traitlets.config import Config

from .bubblewrap import CompilationCache
from .execute import UNDRAWN_FIGURES, BackendUnavailable, PlatformUnavailable, RunSettings
from .runner import KERNEL_DIR
from .supervise import Execution, Executor, Workers
from .platforms import TABLE


# ---------------------------------------------------------------- a kernel-free notebook run

def _jsonable(data: dict) -> dict:
    """As the data would arrive from a kernel: through JSON."""
    return json.loads(json.dumps(data, default=str))


class _Publisher(DisplayPublisher):
    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        self.shell.outputs.append(NotebookNode(output_type="display_data", data=_jsonable(data),
                                               metadata=_jsonable(metadata or {})))


class _Hook(DisplayHook):
    """A cell's value becomes an execute_result, as ipykernel sends it; nothing is printed."""

    def start_displayhook(self):
        pass

    def write_output_prompt(self):
        pass

    def write_format_data(self, format_dict, md_dict=None):
        self.shell.outputs.append(NotebookNode(output_type="execute_result", data=_jsonable(format_dict),
                                               metadata=_jsonable(md_dict or {}),
                                               execution_count=self.shell.execution_count))

    def finish_displayhook(self):
        pass


class _Stream(io.TextIOBase):
    """stdout or stderr of the cell being run, as stream outputs (consecutive writes merged)."""

    def __init__(self, shell: "RecordingShell", name: str):
        self.shell, self.name = shell, name

    @property
    def encoding(self) -> str:
        return "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        outputs = self.shell.outputs
        if outputs and outputs[-1].output_type == "stream" and outputs[-1].name == self.name:
            outputs[-1].text += text
        elif text:
            outputs.append(NotebookNode(output_type="stream", name=self.name, text=text))
        return len(text)


class RecordingShell(InteractiveShell):
    """IPython without a kernel: what each cell prints, displays, returns or raises is kept as
    the nbformat outputs a kernel run leaves (ipykernel's error content: ename, evalue, traceback)."""

    display_pub_class = _Publisher
    displayhook_class = _Hook

    def __init__(self, **kwargs):
        self.outputs: list[NotebookNode] = []
        super().__init__(**kwargs)

    def _showtraceback(self, etype, evalue, stb):
        self.outputs.append(NotebookNode(output_type="error", ename=str(etype.__name__), evalue=str(evalue),
                                         traceback=list(stb)))


class CellTimeout(Exception):
    """A cell ran past the cell timeout (the sandboxed runner's error has the same name)."""


def _expire(signum, frame):
    raise CellTimeout("cell ran past its time limit")


def run_cell(shell: RecordingShell, cell: NotebookNode, timeout: int) -> None:
    """Run one code cell, leaving its outputs and execution count on it as a kernel run would."""
    shell.outputs = cell.outputs = []
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        with contextlib.redirect_stdout(_Stream(shell, "stdout")), contextlib.redirect_stderr(_Stream(shell, "stderr")):
            result = shell.run_cell(cell.source, store_history=True)
        cell.execution_count = result.execution_count
        timed_out = isinstance(result.error_in_exec, CellTimeout)
    except CellTimeout:  # raised in IPython's own code, outside the cell's
        cell.outputs.append(NotebookNode(output_type="error", ename="CellTimeout", evalue="", traceback=[]))
        timed_out = True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if timed_out:
        cell.metadata["jaxcourse_timeout"] = timeout  # what score_cell reads as a timeout


def execute_here(nb: NotebookNode, cell_timeout: int) -> Execution:
    """Every code cell of `nb`, in order, in a fresh shell (an empty namespace); a cell that
    raises leaves an error output and the next cell still runs."""
    start = time.monotonic()
    executed = copy.deepcopy(nb)
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    InteractiveShell.clear_instance()
    shell = RecordingShell.instance(config=config, colors="nocolor")
    try:
        for cell in executed.cells:
            if cell.cell_type == "code":
                run_cell(shell, cell, cell_timeout)
    finally:
        shell.reset(new_session=False)  # drops the lesson's arrays before the next lesson
        RecordingShell.clear_instance()
    return Execution(notebook=executed, seconds=time.monotonic() - start)


# ---------------------------------------------------------------- one process, many lessons

class Process:
    """This process's JAX, environment and working folder, reset for each lesson.

    A kernel starts each lesson afresh; here the lesson gets its environment (grade.lesson_env's
    variables), an empty working folder and, on the CPU, a new backend with the devices it
    declares; afterwards every JAX setting goes back to its value at start, and caches are cleared.
    """

    def __init__(self, platform: str):
        # Before `import jax`, which reads JAX_PLATFORMS once; the figures backend of graded runs.
        os.environ["JAX_PLATFORMS"] = TABLE[platform].jax_platforms
        os.environ.update(UNDRAWN_FIGURES)
        sys.path.append(str(KERNEL_DIR / "figures"))
        import jax
        import jax.extend.backend

        self.jax, self.platform = jax, platform
        jax.config.update("jax_platforms", TABLE[platform].jax_platforms)
        self.config = dict(jax.config.values)

    def devices_missing(self, wanted: int) -> str:
        """Why a lesson that needs `wanted` devices cannot run here, or ''."""
        if TABLE[self.platform].virtual_devices:
            return ""  # the CPU backend is rebuilt with as many as the lesson declares
        have = self.jax.device_count()
        return f"it needs {wanted} devices and this {self.platform} process has {have}" if wanted > have else ""

    @contextlib.contextmanager
    def lesson(self, env: dict[str, str]):
        """Run a lesson inside; the notes list what could not be put back afterwards."""
        jax, notes = self.jax, []
        environ, cwd, path, main = dict(os.environ), os.getcwd(), list(sys.path), sys.modules.get("__main__")
        os.environ.update(env)
        if TABLE[self.platform].virtual_devices:  # a new backend with the lesson's devices (JAX_NUM_CPU_DEVICES is read at import)
            jax.extend.backend.clear_backends()
            jax.config.update("jax_num_cpu_devices",
                              int(env.get("JAX_NUM_CPU_DEVICES", self.config["jax_num_cpu_devices"])))
        with tempfile.TemporaryDirectory(prefix="jaxcourse-lesson-") as home:
            os.chdir(home)
            try:
                yield notes
            finally:
                os.chdir(cwd)
                os.environ.clear()
                os.environ.update(environ)
                sys.path[:] = path
                sys.modules["__main__"] = main
                if "matplotlib.pyplot" in sys.modules:
                    sys.modules["matplotlib.pyplot"].close("all")
                for name, value in self.config.items():
                    if name != "jax_num_cpu_devices" and jax.config.values.get(name) != value:
                        try:
                            jax.config.update(name, value)
                        except Exception as exc:  # noted in the report: later lessons may see it
                            notes.append(f"could not reset {name}: {type(exc).__name__}: {exc}")
                jax.clear_caches()
                gc.collect()


# ---------------------------------------------------------------- as a backend

class InProcess:
    """The instructor's notebooks, one at a time, kernel-free in this process (check-source
    --backend in-process). It never runs a submission: there is no sandbox."""
    shares_files = False  # no sandbox to mount a compilation cache into
    grades = False

    def __init__(self):
        self.processes: dict[str, Process] = {}

    def process(self, platform: str) -> Process:
        """This process's JAX on `platform`, started once (JAX reads JAX_PLATFORMS once)."""
        if platform not in self.processes:
            if self.processes:
                raise BackendUnavailable(f"this process already runs JAX on {next(iter(self.processes))}")
            self.processes[platform] = Process(platform)
        return self.processes[platform]

    def prepare(self, address: str | None) -> None:
        pass

    def preflight(self, platform: str) -> None:
        started = self.process(platform).jax.default_backend()
        if started != platform:
            raise PlatformUnavailable(f"--platform {platform} was requested, but JAX started {started} in this "
                                      "process. Nothing was run.")

    def default_workers(self, platform: str) -> int:
        return 1

    def single(self, settings: RunSettings) -> Executor:
        process = self.process(settings.platform)

        def execute(nb: NotebookNode) -> Execution:
            with process.lesson(dict(settings.lesson_env)):
                return execute_here(nb, settings.limits.cell_timeout)
        return execute

    def executors(self, settings: RunSettings, workers: int, runs: int,
                  cache: CompilationCache | None) -> Workers:
        raise BackendUnavailable("the in-process backend runs the instructor's notebooks only, never a "
                                 "submission: grade with --backend local or ray")
