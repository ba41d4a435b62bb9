"""Executes one notebook with papermill. Runs inside the sandbox, beside the kernel.

Standalone on purpose: the sandbox sees the Python environment but not this repository.
usage: run_notebook.py INPUT OUTPUT CELL_TIMEOUT OUTPUT_BYTES PREIMPORT

The kernel starts at once and imports PREIMPORT (comma-separated modules); the notebook runs
when the grader writes "run" on stdin, so a sandbox can be warmed up while others are busy.
"""
import json
import os
import sys
import time

import nbclient.client
import nbformat
import papermill
import papermill.engines
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.utils import run_sync
from papermill.exceptions import PapermillExecutionError
from papermill.execute import remove_error_markers

RECORD_MIMES = ("application/vnd.jaxcourse.check+json", "application/vnd.jaxcourse.receipt+json")
RECORD_BYTES = 16 * 2**20
# papermill saves the notebook before and after every cell; a cell's results need only be on
# disk soon after it ends (for a run killed at the wall-clock limit), and the final save is kept.
SAVE_EVERY = 2.0
TRUNCATED = "\n[output truncated by the grader: the notebook printed too much]\n"


def output_size(msg):
    content = msg.get("content", {})
    if msg.get("msg_type") == "stream":
        return len(content.get("text", "")), False
    data = content.get("data") or {}
    is_record = any(mime in data for mime in RECORD_MIMES)
    return len(json.dumps(data)), is_record


def install_hooks(output_bytes):
    """Cap what the kernel can make us keep, and mark cells that hit the cell timeout."""
    budget = {"plain": output_bytes, "records": RECORD_BYTES, "warned": False}
    original_output = nbclient.client.NotebookClient.output
    original_timeout = nbclient.client.NotebookClient._async_handle_timeout

    def capped_output(self, outs, msg, display_id, cell_index):
        size, is_record = output_size(msg)
        key = "records" if is_record else "plain"
        budget[key] -= size
        if budget[key] < 0:
            if not budget["warned"]:
                budget["warned"] = True
                outs.append(nbclient.client.output_from_msg(
                    {"msg_type": "stream", "header": msg["header"], "parent_header": {},
                     "content": {"name": "stderr", "text": TRUNCATED}}))
            return None
        return original_output(self, outs, msg, display_id, cell_index)

    async def marked_timeout(self, timeout, cell=None):
        if cell is not None:
            cell.setdefault("metadata", {})["jaxcourse_timeout"] = timeout
        return await original_timeout(self, timeout, cell)

    original_save = papermill.engines.NotebookExecutionManager.save

    def throttled_save(self, **kwargs):
        now = time.monotonic()
        if self.end_time is None and now - getattr(self, "jaxcourse_saved", -SAVE_EVERY) < SAVE_EVERY:
            return
        self.jaxcourse_saved = now
        original_save(self, **kwargs)

    nbclient.client.NotebookClient.output = capped_output
    nbclient.client.NotebookClient._async_handle_timeout = marked_timeout
    papermill.engines.NotebookExecutionManager.save = throttled_save


async def start_kernel(preimport):
    """Boot the kernel papermill will use; import `preimport` silently (no names, no history)."""
    km = AsyncKernelManager(kernel_name="python3")
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
    source, target, cell_timeout, output_bytes, preimport = sys.argv[1:6]
    install_hooks(int(output_bytes))
    try:
        km = run_sync(start_kernel)([name for name in preimport.split(",") if name])
    except Exception as exc:
        print(json.dumps({"fatal": f"the kernel did not start: {type(exc).__name__}: {exc}".splitlines()[0][:300]}))
        sys.exit(3)
    if sys.stdin.readline().strip() != "run":
        run_sync(km.shutdown_kernel)(now=True)
        return  # discarded unused
    try:
        papermill.execute_notebook(
            source, target, km=km,
            kernel_name="python3", progress_bar=False, log_output=False,
            execution_timeout=int(cell_timeout), start_timeout=120,
            allow_errors=True, interrupt_on_timeout=True,
            error_on_timeout={"ename": "CellTimeout", "evalue": f"cell ran longer than {cell_timeout}s", "traceback": []},
        )
    except PapermillExecutionError:
        # Errors in cells are expected and scored per cell; drop the banner cells papermill adds.
        nbformat.write(remove_error_markers(nbformat.read(target, as_version=4)), target)
    except Exception as exc:  # a dead kernel ends the run; the cells it finished are kept
        print(json.dumps({"fatal": f"{type(exc).__name__}: {exc}".splitlines()[0][:300]}))
        sys.exit(3)
    finally:
        run_sync(km.shutdown_kernel)(now=True)


if __name__ == "__main__":
    main()
