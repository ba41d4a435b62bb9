"""What one person on the class hub holds in memory: a JupyterLab server, and a kernel working a lesson.

Starts `jupyter lab` (this environment's, as the hub starts each person's) in a scratch home, loads its
page once, and reads the server's resident and proportional memory (RSS, PSS). Then, for each lesson
named, runs its release with the solutions filled in (as a student who finished it) in a fresh
`python3` kernel on the CPU, sampling the kernel's memory every 0.2 s, and prints the peak.

  .venv/bin/python benchmarks/hub_memory.py welcome-02 nets-05 dist-02 capstone-01 pallas-02

Nothing is sandboxed: the notebooks are the course's own. The figures are the README's
"What a class costs" and docs/hub.md's "Sizing the machine".
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def pss_bytes(pid: int) -> int:
    """Proportional set size: shared pages divided among the processes that map them."""
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def lab_server(port: int) -> dict:
    import psutil
    home = Path(tempfile.mkdtemp(prefix="hub-memory-"))
    env = {**os.environ, "HOME": str(home), "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    url = f"http://127.0.0.1:{port}"
    with open(home / "lab.log", "w") as log:
        lab = subprocess.Popen([sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
                                "--ServerApp.token=probe", f"--notebook-dir={home}"], env=env,
                               stdout=subprocess.DEVNULL, stderr=log)
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"{url}/api/status?token=probe", timeout=2)
                break
            except OSError:
                time.sleep(1)
        else:
            raise SystemExit(f"jupyter lab did not start: see {home / 'lab.log'}")
        urllib.request.urlopen(f"{url}/lab?token=probe", timeout=60).read()   # the page a browser opens
        time.sleep(5)
        server = psutil.Process(lab.pid)
        return {"rss_mib": round(server.memory_info().rss / 2**20), "pss_mib": round(pss_bytes(lab.pid) / 2**20)}
    finally:
        lab.terminate()
        lab.wait(30)


def lesson_kernel(course, lesson: str) -> dict:
    import nbformat
    import psutil
    from nbclient import NotebookClient
    from jaxcourse.authoring import fabricate
    nb = fabricate.solved(course, lesson, nbformat.read(course.release / lesson / f"{lesson}.ipynb", as_version=4))
    client = NotebookClient(nb, timeout=600, kernel_name="python3", allow_errors=True,
                            resources={"metadata": {"path": tempfile.mkdtemp(prefix="hub-memory-")}})
    peak = {"rss": 0, "pss": 0}
    done = threading.Event()

    def sample():
        while not done.is_set():
            try:
                process = client.km.provisioner.process
                kernel = psutil.Process(process.pid)
                tree = [kernel, *kernel.children(recursive=True)]
                peak["rss"] = max(peak["rss"], sum(p.memory_info().rss for p in tree))
                peak["pss"] = max(peak["pss"], sum(pss_bytes(p.pid) for p in tree))
            except (AttributeError, psutil.Error):
                pass
            time.sleep(0.2)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.monotonic()
    client.execute()
    done.set()
    sampler.join()
    errors = sum(out.get("output_type") == "error" for cell in nb.cells for out in cell.get("outputs", []))
    return {"peak_rss_mib": round(peak["rss"] / 2**20), "peak_pss_mib": round(peak["pss"] / 2**20),
            "seconds": round(time.monotonic() - start, 1), "errors": errors}


def main() -> int:
    parser = argparse.ArgumentParser(prog="hub_memory.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("lessons", nargs="*", metavar="LESSON", help="lessons whose solved release a kernel runs")
    parser.add_argument("--course-dir", default=str(Path(__file__).resolve().parents[1]), metavar="DIR")
    parser.add_argument("--port", type=int, default=18897, help="a free port for the JupyterLab server")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args()
    from jaxcourse.course import Course
    course = Course.at(args.course_dir)
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    figures = {"jupyterlab_server": lab_server(args.port)}
    print(f"JupyterLab server, idle after its page loaded: {figures['jupyterlab_server']}", flush=True)
    for lesson in args.lessons:
        figures[lesson] = lesson_kernel(course, lesson)
        print(f"{lesson}: kernel peak {figures[lesson]}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
