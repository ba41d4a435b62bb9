"""A TPU host's rules, rehearsed on a CPU: kernels over unix sockets and no IP socket at all, a host
without user namespaces, and a fresh kernel after a submission breaks its device.

A TPU VM's sandboxed runtime refuses every IP socket (errno 97) and user namespaces. `--no-ip-sockets`
loads a seccomp program into the sandbox that refuses socket(AF_INET/AF_INET6) the same way, and
`unshare -Ur` with max_user_namespaces at 0 makes a host where bubblewrap cannot start.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from conftest import fresh_tiny, grade, submit_solution
from jaxcourse.grading.record import executed_path
from jaxcourse.run.workdirs import runs_folder
from test_fast_grading import printed_in
from test_hostile import by_id, prepend

JAXCOURSE = [sys.executable, "-m", "jaxcourse.cli"]

# What a cell can see of the kernel it runs in: its connection file, its IP sockets (none: the
# kernel's own, before this cell makes any), and what the host lets it open.
PROBE = """
import errno, json, os, socket, subprocess
import ipykernel.connect, psutil, zmq
connection = ipykernel.connect.get_connection_file()
info = json.load(open(connection))
print('CONNECTION', connection, info['transport'], oct(os.stat(os.path.dirname(connection)).st_mode & 0o777))
print('KERNEL IP SOCKETS', len(psutil.Process().net_connections(kind='inet')))
for family in ('AF_INET', 'AF_INET6', 'AF_UNIX'):
    try:
        socket.socket(getattr(socket, family)).close()
        print(family, 'opened')
    except OSError as exc:
        print(family, 'refused', exc.errno)
try:
    zmq.Context().socket(zmq.PULL).bind_to_random_port('tcp://127.0.0.1')
    print('ZMQ TCP bound')
except zmq.ZMQError as exc:
    print('ZMQ TCP refused', exc.errno)
child = os.fork()
if child == 0:
    print('FORKED CHILD PRINTED', flush=True)
    os._exit(0)
os.waitpid(child, 0)
print('AFTER FORK')
print(subprocess.run(['echo', 'SUBPROCESS PRINTED'], capture_output=True, text=True).stdout)
"""


def printed(course, student):
    return printed_in(nbformat.read(executed_path(course, "tiny", student, "tiny"), as_version=4))


@pytest.fixture(scope="module", params=["sandboxed", "unsandboxed"])
def probed(request, tmp_path_factory):
    """The solution with the probe, graded as on a TPU host: in the sandbox with IP sockets refused,
    and without the sandbox (`--unsafe-no-sandbox`, all a host without user namespaces allows)."""
    course = fresh_tiny(tmp_path_factory.mktemp(request.param))
    submit_solution(course, "probe", edit=prepend(PROBE))
    sandboxed = request.param == "sandboxed"
    rows = grade(course, "tiny", sandbox=sandboxed, ip_sockets=not sandboxed)
    return request.param, rows["probe"], printed(course, "probe")


def test_a_graded_run_opens_no_ip_socket_and_grades_in_full(probed):
    mode, rows, out = probed
    assert [r["status"] for r in rows] == ["ok", "ok"], rows
    assert "KERNEL IP SOCKETS 0" in out, out
    assert "AF_UNIX opened" in out
    if mode == "sandboxed":  # the seccomp program is live: a TCP kernel could not have started here
        assert "AF_INET refused 97" in out and "AF_INET6 refused 97" in out and "ZMQ TCP refused 97" in out, out


def test_the_kernels_connection_file_and_sockets_are_the_runs_own(probed):
    mode, _, out = probed
    line = next(line for line in out.splitlines() if line.startswith("CONNECTION"))
    _, path, transport, mode_bits = line.split()
    assert transport == "ipc" and mode_bits == "0o700", line
    if mode == "sandboxed":  # the sandbox's own /tmp, which no host process sees
        assert path == "/tmp/jaxcourse-kernel/kernel.json", line
    else:  # inside the run's folder, under the grader's private runs folder
        assert path.startswith(str(runs_folder()) + "/run-") and path.endswith("/kernel/kernel.json"), line
        assert os.stat(runs_folder()).st_mode & 0o777 == 0o700


def test_a_forked_childs_output_is_dropped_and_the_kernel_carries_on(probed):
    """ipykernel forwards a forked child's output over a TCP socket, which the kernel does not open."""
    _, rows, out = probed
    assert "FORKED CHILD PRINTED" not in out and "AFTER FORK" in out, out
    assert "SUBPROCESS PRINTED" in out  # a subprocess's output that the parent captures is kept
    assert by_id(rows)["checkpoint-test"]["status"] == "ok"


def without_user_namespaces(*command, env=None):
    """`command` on a host where no user namespace can be made (the TPU VM's case)."""
    return subprocess.run(["unshare", "-Ur", "sh", "-c", 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"',
                           "sh", *command], capture_output=True, text=True, timeout=300, env=env)


def test_without_user_namespaces_grade_and_check_source_say_why_and_start_nothing(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "student")
    before = sorted(p.relative_to(course.root) for p in course.root.rglob("*"))
    private_tmp = tmp_path / "tmp"  # its own temporary folder: other tests' graders use the shared one meanwhile
    private_tmp.mkdir(mode=0o700)
    for command in (["grade", "tiny"], ["check-source", "tiny"]):
        done = without_user_namespaces(*JAXCOURSE, *command, "--course-dir", str(course.root),
                                       env={**os.environ, "TMPDIR": str(private_tmp)})
        assert done.returncode == 2, (command, done.stderr)
        message = done.stderr.strip()
        assert len(message.splitlines()) == 1 and "Traceback" not in message, message
        assert message.startswith("error: this host does not allow user namespaces, which the bubblewrap sandbox needs"), message
        assert "--unsafe-no-sandbox" in message, message
    assert sorted(p.relative_to(course.root) for p in course.root.rglob("*")) == before  # nothing written
    assert list(private_tmp.iterdir()) == [], "no runs folder, no sandbox started"
    trusted = without_user_namespaces(*JAXCOURSE, "check-source", "tiny", "--unsafe-no-sandbox",
                                      "--course-dir", str(course.root))
    assert trusted.returncode == 0 and "ok   tiny: 2 graded cells pass" in trusted.stdout, trusted.stderr


ABORTS = "import os\nos.abort()  # as libtpu aborts a process whose chip halted\n"
# Every later computation in this process fails, as on a chip whose program continuator halted.
BREAKS_THE_DEVICE = (
    "import jax, jax.numpy as jnp\n"
    "def halted(*args, **kwargs):\n    raise RuntimeError('The program continuator has halted unexpectedly')\n"
    "jnp.arange = jnp.allclose = jax.jit = halted\n"
    "halted()\n")


def test_after_a_submission_breaks_its_device_the_next_on_the_same_worker_gets_a_fresh_kernel(tmp_path):
    """One worker, graded in student order: the policy is a fresh kernel (a fresh process, so a fresh
    device) for every submission, whatever the one before it did. The honest student's test cells
    call jnp.arange and jnp.allclose, which fail in the process the student before it broke."""
    course = fresh_tiny(tmp_path)
    for student, edit in (("a-aborts", prepend(ABORTS)), ("b-breaks", prepend(BREAKS_THE_DEVICE)),
                          ("c-honest", None)):
        submit_solution(course, student, edit=edit)
    rows = grade(course, "tiny", workers=1)
    assert {r["status"] for r in rows["a-aborts"]} == {"error"}
    assert all("the kernel died" in r["detail"] for r in rows["a-aborts"]), rows["a-aborts"]
    assert by_id(rows["b-breaks"])["sums-test"]["status"] == "error"
    assert "program continuator has halted" in by_id(rows["b-breaks"])["sums-test"]["detail"]
    assert [r["status"] for r in rows["c-honest"]] == ["ok", "ok"], rows["c-honest"]


def test_the_chip_grading_script_grades_a_course_and_reports_each_submission(tmp_path):
    """benchmarks/grade_on_chip.py runs only on a TPU host in earnest; here it grades the tiny course
    on the CPU, so that a change of the grader's files or CSV does not break it unseen."""
    course = fresh_tiny(tmp_path)
    submit_solution(course, "student-correct")
    report = tmp_path / "report.json"
    command = [sys.executable, "benchmarks/grade_on_chip.py", "run", str(course.root), "--platform", "cpu",
               "--chip-opens", "1", "--report", str(report)]
    stopped = subprocess.run([*command, "--stop-after", "0"], capture_output=True, text=True, timeout=300,
                             cwd=Path(__file__).resolve().parents[1])
    assert stopped.returncode == 0 and "not yet graded: tiny" in stopped.stdout, stopped.stdout + stopped.stderr[-2000:]
    opens = json.loads(report.read_text())
    assert opens["lessons"] == {} and len(opens["chip_opens"]) == 1
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(report.read_text())
    assert result["chip_opens"] == opens["chip_opens"]  # a continued report does not time the chip again
    student = result["lessons"]["tiny"]["students"]["student-correct"]
    assert {cell: value[:2] for cell, value in student["cells"].items()} == {
        "sums-test": ["ok", 2.0], "checkpoint-test": ["ok", 1.0]}
    assert student["receipt"]["backend"] == "cpu" and student["seconds"] > 0 and result["chip_opens"][0] > 0
    compared = subprocess.run([sys.executable, "benchmarks/grade_on_chip.py", "compare", str(report), str(report)],
                              capture_output=True, text=True, timeout=60, cwd=Path(__file__).resolve().parents[1])
    assert "1 submissions in 1 lessons, 0 scored differently" in compared.stdout, compared.stdout
