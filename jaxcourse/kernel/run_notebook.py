"""Executes one notebook with papermill. Runs inside the sandbox, beside the kernel.

Standalone on purpose: the sandbox sees the Python environment and this folder, not the repository.
usage: run_notebook.py INPUT OUTPUT CELL_TIMEOUT OUTPUT_BYTES PREIMPORT KERNEL_DIR

The kernel starts at once and imports PREIMPORT (comma-separated modules); the notebook runs
when the grader writes "run" on stdin, so a sandbox can be warmed up while others are busy.
The kernel's connection file and its unix sockets (ipc transport: no IP socket, which a TPU
host refuses and which any local user could reach) live in KERNEL_DIR, made private here.
"""
import os
import secrets
import sys
import time

import no_format_checkers  # noqa: F401  (before nbformat; the runner's folder is on sys.path)
import nbclient.client
import nbclient.exceptions
import nbformat
import papermill
from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from papermill.clientwrap import PapermillNotebookClient
from papermill.engines import NBClientEngine, papermill_engines
from papermill.exceptions import PapermillExecutionError
from papermill.execute import remove_error_markers
from papermill.utils import merge_kwargs, remove_args

RECORD_MIMES = ("application/vnd.jaxcourse.check+json", "application/vnd.jaxcourse.receipt+json")
RECORD_BYTES = 16 * 2**20
# Outputs kept per notebook, whatever their size: the grader's work grows with their number
# (runner.MAX_OUTPUTS_READ refuses an executed notebook holding more than these allow).
MAX_OUTPUTS = {"plain": 10_000, "records": 1_000}
# papermill saves the notebook before and after every cell; a cell's results need only be on
# disk soon after it ends (for a run killed at the wall-clock limit), and the final save is kept.
SAVE_EVERY = 2.0
TRUNCATED = "\n[output truncated by the grader: the notebook printed too much]\n"
# The runner reports how a run ended by its exit status alone: the kernel shares its stdout
# and stderr, so nothing printed there is trusted as a message. run/runner.py maps these.
EXIT_NO_KERNEL, EXIT_CELL_STUCK, EXIT_KERNEL_DIED = 3, 4, 5
# Held by this process only, so that a reply the kernel (the student's code) sends cannot pass
# for nbclient's timeout; a forged one would anyway only cost the student its own cell.
TIMEOUT_MARK = secrets.token_hex(16)


def output_size(msg):
    content = msg.get("content", {})
    if msg.get("msg_type") == "stream":
        return len(content.get("text", "")), False
    data = content.get("data") or {}
    is_record = any(mime in data for mime in RECORD_MIMES)
    return len(str(data)), is_record


class GraderClient(PapermillNotebookClient):
    """Caps what the kernel can make us keep, and marks cells that hit the cell timeout."""

    output_bytes = 8 * 2**20  # set from the command line

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.budget = {"plain": self.output_bytes, "records": RECORD_BYTES}
        self.outputs_left = dict(MAX_OUTPUTS)
        self.warned = False
        self.on_cell_error = self.mark_timeout

    def output(self, outs, msg, display_id, cell_index):
        size, is_record = output_size(msg)
        key = "records" if is_record else "plain"
        self.budget[key] -= size
        self.outputs_left[key] -= 1
        if self.budget[key] < 0 or self.outputs_left[key] < 0:
            if not self.warned:
                self.warned = True
                outs.append(nbclient.client.output_from_msg(
                    {"msg_type": "stream", "header": msg["header"], "parent_header": {},
                     "content": {"name": "stderr", "text": TRUNCATED}}))
            return None
        return super().output(outs, msg, display_id, cell_index)

    def mark_timeout(self, cell, cell_index, execute_reply):
        """nbclient's on_cell_error hook: the reply nbclient makes up when a cell runs past the
        timeout (error_on_timeout) carries TIMEOUT_MARK, which no reply from the kernel can."""
        if execute_reply["content"].get("jaxcourse_timeout") == TIMEOUT_MARK:
            cell.setdefault("metadata", {})["jaxcourse_timeout"] = self.timeout


class GraderEngine(NBClientEngine):
    """papermill's nbclient engine with the grader's client and throttled saves."""

    @classmethod
    def execute_managed_notebook(cls, nb_man, kernel_name, log_output=False, stdout_file=None,
                                 stderr_file=None, start_timeout=60, execution_timeout=None, **kwargs):
        save = nb_man.save
        last = {"at": -SAVE_EVERY}

        def throttled_save(**save_kwargs):
            now = time.monotonic()
            if nb_man.end_time is None and now - last["at"] < SAVE_EVERY:
                return
            last["at"] = now
            save(**save_kwargs)

        nb_man.save = throttled_save
        kwargs = remove_args(["input_path", "timeout", "startup_timeout"], **kwargs)
        final = merge_kwargs(kwargs, timeout=execution_timeout, startup_timeout=start_timeout,
                             kernel_name=kernel_name, log_output=log_output,
                             stdout_file=stdout_file, stderr_file=stderr_file)
        return GraderClient(nb_man, **final).execute()


papermill_engines.register("jaxcourse", GraderEngine)


class GraderKernelSpecs(KernelSpecManager):
    """The one kernel graded runs use (python_kernel.py beside this file), found without searching
    Jupyter's data folders."""

    def get_kernel_spec(self, kernel_name):
        kernel = os.path.join(os.path.dirname(os.path.abspath(__file__)), "python_kernel.py")
        return KernelSpec(argv=[sys.executable, kernel, "-f", "{connection_file}"], display_name="Python 3",
                          language="python", resource_dir=os.path.dirname(kernel))


async def start_kernel(preimport, kernel_dir):
    """Boot the kernel papermill will use; import `preimport` silently (no names, no history)."""
    os.makedirs(kernel_dir, mode=0o700)
    km = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=GraderKernelSpecs(), transport="ipc",
                            connection_file=os.path.join(kernel_dir, "kernel.json"))
    # C++ log lines (XLA's cache loader, for one) go to the grader's log, not into cell outputs.
    await km.start_kernel(extra_arguments=["--HistoryManager.hist_file=:memory:",
                                           "--IPKernelApp.capture_fd_output=False"], cwd=os.getcwd())
    if preimport:
        kc = km.client()
        kc.start_channels()
        try:
            await kc.wait_for_ready(timeout=120)
            code = "".join(f"__import__({name!r})\n" for name in preimport)
            await kc.execute_interactive(code, silent=True, store_history=False, timeout=120)
        finally:
            kc.stop_channels()
    return km


def main():
    source, target, cell_timeout, output_bytes, preimport, kernel_dir = sys.argv[1:7]
    GraderClient.output_bytes = int(output_bytes)
    try:
        km = run_sync(start_kernel)([name for name in preimport.split(",") if name], kernel_dir)
    except Exception as exc:
        print(f"the kernel did not start: {type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_NO_KERNEL)
    if sys.stdin.readline().strip() != "run":
        run_sync(km.shutdown_kernel)(now=True)
        return  # discarded unused
    try:
        papermill.execute_notebook(
            source, target, km=km, engine_name="jaxcourse",
            kernel_name="python3", progress_bar=False, log_output=False,
            execution_timeout=int(cell_timeout), start_timeout=120,
            allow_errors=True, interrupt_on_timeout=True,
            error_on_timeout={"ename": "CellTimeout", "evalue": f"cell ran longer than {cell_timeout}s", "traceback": [],
                              "jaxcourse_timeout": TIMEOUT_MARK},
        )
    except PapermillExecutionError:
        # Errors in cells are expected and scored per cell; drop the banner cells papermill adds.
        nbformat.write(remove_error_markers(nbformat.read(target, as_version=4)), target)
    except nbclient.exceptions.CellTimeoutError as exc:  # the kernel ignored the interrupt
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_CELL_STUCK)
    except Exception as exc:  # a dead kernel ends the run; the cells it finished are kept
        print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
        sys.exit(EXIT_KERNEL_DIED)
    finally:
        run_sync(km.shutdown_kernel)(now=True)


if __name__ == "__main__":
    main()
