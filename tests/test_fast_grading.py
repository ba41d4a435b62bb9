"""Grade fast without sharing state: warm single-use sandboxes, a read-only compilation cache,
the Ray backend, and the progress display."""
import shutil
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import psutil
import pytest

from conftest import REPO, fresh_tiny, grade, release_nb, submit_solution
from jaxcourse.authoring import fabricate
from jaxcourse.grading import expected as expected_store
from jaxcourse.grading.expected import cache_path, expected_path
from jaxcourse.grading.options import PREIMPORT
from jaxcourse.grading.record import executed_path
from jaxcourse.run import backends, ray_backend
from jaxcourse.run.backends import WarmSandboxes
from jaxcourse.run.bubblewrap import SANDBOX_CACHE, SANDBOX_FONT_CACHE, CompilationCache
from jaxcourse.run.execute import RunSettings, Sandbox, SandboxSpec
from jaxcourse.run.limits import Limits
from test_resume import export_totals

JIT_PROGRAM = ("import jax, jax.numpy as jnp\n"
               "f = jax.jit(lambda x: jnp.tanh(x @ x).sum())\n"
               "print('value', float(f(jnp.ones((4, 4)))))\n")
COUNT_CACHE_EVENTS = ("import jax.monitoring\n"
                      "events = {}\n"
                      "jax.monitoring.register_event_listener(lambda name, **_: events.__setitem__(name, events.get(name, 0) + 1))\n")


def notebook(*sources):
    return nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])


def printed_in(nb):
    return "".join(out.get("text", "") for cell in nb.cells for out in cell.get("outputs", []))


def printed(execution):
    assert execution.notebook is not None, execution.fatal or execution.stderr_tail
    return printed_in(execution.notebook)


def test_warm_sandbox_serves_one_notebook_with_nothing_left_behind():
    sandbox = Sandbox(SandboxSpec("cpu", preimport=PREIMPORT))
    first = sandbox.run(notebook(
        "import sys\nprint('preloaded', all(m in sys.modules for m in %r))\n" % (PREIMPORT,)
        + "print('jax imported', 'jax' in sys.modules)\n"
        "print('names', sorted(n for n in globals() if not n.startswith('_') and n not in ('In', 'Out', 'exit', 'quit', 'get_ipython', 'open', 'sys')))\n"
        "open('/tmp/left-behind', 'w').write('x')\nsecret = 42\n"))
    out = printed(first)
    # The warm-up imported jax's dependencies, not jax (it reads JAX_* variables at import),
    # and left no names and no history: the student's first cell is execution 1.
    assert "preloaded True" in out and "jax imported False" in out and "names []" in out, out
    assert first.notebook.cells[0].execution_count == 1
    assert not sandbox.alive() and not sandbox.workdir.exists()
    second = Sandbox(SandboxSpec("cpu", preimport=PREIMPORT)).run(notebook(
        "import os\nprint('file', os.path.exists('/tmp/left-behind'), 'secret' in globals())\n"))
    assert "file False False" in printed(second)


@pytest.mark.parametrize("cores, at_once", [(2, 0), (4, 1), (13, 2)])
def test_a_warm_pool_starts_at_once_only_on_the_cores_the_start_leaves_free(monkeypatch, cores, at_once):
    """Beside the solution run, the cache fill and the grader's own start: on 2 cores booting
    early only slowed them; `expect` starts the others."""
    monkeypatch.setattr(backends, "usable_cores", lambda: cores)
    pool = WarmSandboxes(RunSettings(), None, runs=3, workers=2)
    try:
        assert sorted(pool.ready) == list(range(at_once))
        pool.expect(3)
        assert sorted(pool.ready) == [0, 1]
    finally:
        pool.close()


def test_a_warm_pool_keeps_one_sandbox_started_for_each_notebook_to_come(monkeypatch):
    """The pool starts before grading has counted what is left to run (one notebook a student);
    `expect` discards the sandboxes started for notebooks that will not come, and starts the
    missing ones; none starts ahead when nothing is left."""
    monkeypatch.setattr(backends, "usable_cores", lambda: 13)
    pool = WarmSandboxes(RunSettings(), None, runs=3, workers=2)
    try:
        first = dict(pool.ready)
        assert sorted(first) == [0, 1]
        pool.expect(1)
        assert pool.ready == {0: first[0]}
        assert first[1].closed and first[1].proc.poll() is not None and not first[1].workdir.exists()
        assert "ran" in printed(pool.executor(0)(notebook("print('ran')")))
        assert pool.ready == {}
        pool.expect(2)
        assert sorted(pool.ready) == [0, 1] and all(s.alive() for s in pool.ready.values())
        assert first[0] not in pool.ready.values()
    finally:
        pool.close()
    assert pool.ready == {}


def test_a_warm_sandbox_honours_jax_settings_made_before_import_jax():
    """welcome-cpu sets JAX_NUM_CPU_DEVICES before `import jax`: warming must not break that."""
    execution = Sandbox(SandboxSpec("cpu", preimport=PREIMPORT)).run(notebook(
        "import os\nos.environ.setdefault('JAX_NUM_CPU_DEVICES', '4')\n"
        "import jax\nprint('devices', len(jax.devices()))\n"))
    assert "devices 4" in printed(execution)


def test_the_kernel_imports_from_the_working_folder_and_not_from_the_graders():
    """As with ipykernel_launcher: a student's own module in the working folder imports; the
    grader's kernel folder (the runner, the receipt) is not on the path."""
    execution = Sandbox(SandboxSpec("cpu")).run(notebook(
        "open('helper_module.py', 'w').write('VALUE = 7')\nimport helper_module\nprint('helper', helper_module.VALUE)\n"
        "import sys\nprint('grader folder', '/grader/kernel' in sys.path)\n"))
    out = printed(execution)
    assert "helper 7" in out and "grader folder False" in out, out


def test_unused_warm_sandbox_is_discarded_cleanly():
    sandbox = Sandbox(SandboxSpec("cpu", preimport=PREIMPORT))
    sandbox.discard()
    assert not sandbox.alive() and not sandbox.workdir.exists()


def test_a_run_killed_at_the_wall_clock_keeps_the_cells_it_finished():
    """Saves are throttled, not dropped: what finished a moment before the kill is on disk."""
    execution = Sandbox(SandboxSpec("cpu", Limits(cell_timeout=60, notebook_timeout=12))).run(notebook(
        "print('first done')", "import time\ntime.sleep(3)\nprint('second done')", "while True:\n    pass"))
    assert execution.timed_out
    out = printed(execution)
    assert "first done" in out and "second done" in out, out


def test_only_the_runners_own_timeout_marks_a_cell_timed_out():
    """nbclient's on_cell_error hook marks the cell whose reply nbclient made up at the timeout;
    an exception the student names CellTimeout is an error like any other."""
    execution = Sandbox(SandboxSpec("cpu", Limits(cell_timeout=4, notebook_timeout=120))).run(notebook(
        "class CellTimeout(Exception):\n    pass\nraise CellTimeout('cell ran longer than 4s')",
        "import time\ntime.sleep(60)", "print('after')"))
    forged, slow, after = execution.notebook.cells
    assert "jaxcourse_timeout" not in forged.metadata and forged.outputs[-1].ename == "CellTimeout"
    assert slow.metadata.get("jaxcourse_timeout") == 4
    assert "after" in printed(execution)


def test_compilation_cache_is_filled_by_the_solution_and_read_only_for_students(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    filled = Sandbox(SandboxSpec("cpu", cache=CompilationCache(folder, writable=True))).run(notebook(JIT_PROGRAM))
    assert "value" in printed(filled)
    entries = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert any(name.startswith("jit__lambda") for name in entries), sorted(entries)

    student = Sandbox(SandboxSpec("cpu", cache=CompilationCache(folder))).run(notebook(
        COUNT_CACHE_EVENTS, JIT_PROGRAM,
        "import os\nprint('hits', events.get('/jax/compilation_cache/cache_hits', 0))\n"
        f"target = os.path.join({SANDBOX_CACHE!r}, sorted(os.listdir({SANDBOX_CACHE!r}))[0])\n"
        "for attempt in (lambda: open(target, 'wb').write(b'poison'), lambda: open(target + '-new', 'wb'),\n"
        "                lambda: os.remove(target)):\n"
        "    try:\n        attempt()\n        print('WROTE')\n"
        "    except OSError as exc:\n        print('refused', exc.errno)\n"))
    out = printed(student)
    assert "hits 0" not in out and "hits" in out, out
    assert "WROTE" not in out and out.count("refused 30") == 3, out  # EROFS
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == entries
    # JAX's C++ cache loader complains about machine features on stderr; none of it reaches the student.
    assert "cpu_aot_loader" not in out


def test_without_the_sandbox_a_run_reads_the_cache_in_place_and_writes_nothing(tmp_path):
    """--unsafe-no-sandbox (trusted notebooks, a host without user namespaces) still gets the
    cache of the lesson's visible code; the write threshold keeps a run from adding to it."""
    folder = tmp_path / "cache"
    folder.mkdir()
    filled = Sandbox(SandboxSpec("cpu", sandbox=False, cache=CompilationCache(folder, writable=True))).run(
        notebook(JIT_PROGRAM))
    assert "value" in printed(filled)
    entries = sorted(p.name for p in folder.iterdir())
    assert any(name.startswith("jit__lambda") for name in entries), entries
    run = Sandbox(SandboxSpec("cpu", sandbox=False, cache=CompilationCache(folder))).run(notebook(
        COUNT_CACHE_EVENTS, JIT_PROGRAM, "print(float(jax.jit(lambda x: x * 3)(2.0)))",
        "print('hits', events.get('/jax/compilation_cache/cache_hits', 0))"))
    out = printed(run)
    assert "hits 0" not in out and "hits" in out and "6.0" in out, out
    assert sorted(p.name for p in folder.iterdir()) == entries  # the new program was not kept


FONT_MANAGER_LOG = ("import io, logging\n"
                    "font_log = io.StringIO()\n"
                    "logging.getLogger('matplotlib.font_manager').addHandler(logging.StreamHandler(font_log))\n"
                    "logging.getLogger('matplotlib.font_manager').setLevel(logging.INFO)\n"
                    "import matplotlib.pyplot\n"
                    "print('font manager:', font_log.getvalue().strip() or 'loaded')\n")


def test_the_font_list_built_by_visible_code_is_read_only_for_students_and_spares_the_rebuild(tmp_path):
    cache = CompilationCache(tmp_path / "cache", writable=True)
    cache.path.mkdir()
    cache.fonts.mkdir()
    assert "generated new fontManager" in printed(Sandbox(SandboxSpec("cpu", cache=cache)).run(notebook(FONT_MANAGER_LOG)))
    (font_list,) = cache.fonts.glob("fontlist-*.json")
    built = font_list.read_bytes()

    student = Sandbox(SandboxSpec("cpu", cache=CompilationCache(cache.path))).run(notebook(
        FONT_MANAGER_LOG,
        "import glob, os\n"
        f"(target,) = glob.glob({SANDBOX_FONT_CACHE!r} + '/fontlist-*.json')\n"
        "for attempt in (lambda: open(target, 'w').write('{}'), lambda: os.remove(target)):\n"
        "    try:\n        attempt()\n        print('WROTE')\n"
        "    except OSError as exc:\n        print('refused', exc.errno)\n"
        "print('home writable', os.access(os.path.dirname(target), os.W_OK))\n"))
    out = printed(student)
    assert "font manager: loaded" in out, out
    assert "WROTE" not in out and "refused 30" in out and "refused 16" in out, out  # EROFS; EBUSY (a mount point)
    assert "home writable True" in out, out
    assert font_list.read_bytes() == built


def cache_mounted_in_a_started_sandbox() -> bool:
    """Is a sandbox's notebook runner running with the cache mounted? (bwrap reads its arguments
    from a file descriptor, so the mount shows only in the runner's own mount table.)"""
    for proc in psutil.Process().children(recursive=True):
        try:
            if "run_notebook.py" in " ".join(proc.cmdline()) and \
                    f" {SANDBOX_CACHE} " in Path(f"/proc/{proc.pid}/mountinfo").read_text():
                return True
        except (psutil.Error, OSError):
            pass
    return False


def test_sandboxes_started_before_the_cache_is_filled_read_it_filled(tmp_path, monkeypatch):
    """The workers' first sandboxes mount the cache folder while the solution's run refills it."""
    course = fresh_tiny(tmp_path)
    expected_path(course, "tiny", "cpu").unlink()  # the solution runs again; the cache is emptied and refilled
    fill = expected_store.fill_cache

    def fill_once_a_sandbox_has_mounted_the_cache(*args):
        deadline = time.monotonic() + 120
        while not cache_mounted_in_a_started_sandbox():
            assert time.monotonic() < deadline, "no sandbox started with the cache mounted before the fill"
            time.sleep(0.05)
        fill(*args)

    monkeypatch.setattr(expected_store, "fill_cache", fill_once_a_sandbox_has_mounted_the_cache)

    def counting_hits(nb):
        nb.cells.insert(0, nbformat.v4.new_code_cell(COUNT_CACHE_EVENTS))
        nb.cells.append(nbformat.v4.new_code_cell("print('hits', events.get('/jax/compilation_cache/cache_hits', 0))"))

    submit_solution(course, "a", edit=counting_hits)
    assert {r["status"] for r in grade(course, "tiny")["a"]} == {"ok"}
    out = printed_in(nbformat.read(executed_path(course, "tiny", "a", "tiny"), as_version=4))
    assert "hits" in out and "hits 0" not in out, out


def test_grading_fills_the_cache_once_and_grades_identically_without_it(tmp_path):
    cached = fresh_tiny(tmp_path / "cached")
    submit_solution(cached, "a")
    for mutant in fabricate.mutants(cached, "tiny"):
        fabricate.submit(cached, mutant.name, "tiny", fabricate.solved(cached, "tiny", release_nb(cached, "tiny"), mutant))
    plain_root = tmp_path / "plain"
    shutil.copytree(cached.root, plain_root)
    plain = type(cached).at(plain_root)
    shutil.rmtree(cache_path(plain, "tiny", "cpu"))
    grade(cached, "tiny")
    grade(plain, "tiny", compilation_cache=False, warm=False, preimport=())
    assert any(cache_path(cached, "tiny", "cpu").iterdir())
    assert not cache_path(plain, "tiny", "cpu").exists()
    assert (cached.grades / "tiny.csv").read_text() == (plain.grades / "tiny.csv").read_text()
    assert export_totals(cached) == export_totals(plain)


@pytest.fixture
def local_ray(monkeypatch):
    import ray  # the optional extra; `make test` installs it
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_backend_grades_like_the_local_backend(tmp_path, local_ray):
    local = fresh_tiny(tmp_path / "local")
    submit_solution(local, "a")
    fabricate.submit(local, "b", "tiny", release_nb(local, "tiny"))
    mutant = fabricate.mutants(local, "tiny")[0]
    fabricate.submit(local, "c", "tiny", fabricate.solved(local, "tiny", release_nb(local, "tiny"), mutant))
    on_ray_root = tmp_path / "ray"
    shutil.copytree(local.root, on_ray_root)
    on_ray = type(local).at(on_ray_root)
    grade(local, "tiny")
    rows = grade(on_ray, "tiny", backend="ray")
    points = {student: sum(float(r["points"]) for r in got) for student, got in rows.items()}
    full = sum(float(r["max_points"]) for r in rows["a"])
    assert points["a"] == full and points["b"] == 0 and 0 < points["c"] < full, points
    assert (local.grades / "tiny.csv").read_text() == (on_ray.grades / "tiny.csv").read_text()
    assert export_totals(local) == export_totals(on_ray)


@pytest.fixture
def two_node_ray(monkeypatch):
    """A Ray cluster of two nodes on this host, one core each, and this process its driver."""
    import ray
    from ray.cluster_utils import Cluster
    monkeypatch.setenv("RAY_USAGE_STATS_ENABLED", "0")
    monkeypatch.setenv("RAY_gcs_server_port_wait_time_s", "120")  # the default 30 s is short on a loaded host
    cluster = Cluster()
    try:
        nodes = [cluster.add_node(wait=False, num_cpus=1, include_dashboard=False), cluster.add_node(wait=False, num_cpus=1)]
        cluster.wait_for_nodes(timeout=180)
        ray.init(address=cluster.address, include_dashboard=False, log_to_driver=False)
        yield {node.node_id for node in nodes}
    finally:
        ray.shutdown()
        cluster.shutdown()


def gradebook_commits(path) -> int:
    """SQLite's file change counter: every transaction that wrote the file, from any process, adds one."""
    with open(path, "rb") as handle:
        return int.from_bytes(handle.read(28)[24:28], "big")


def test_ray_backend_on_two_nodes_runs_on_both_and_the_driver_alone_writes_the_gradebook(tmp_path, two_node_ray):
    """Each node holds one core, so the two workers' actors must sit on different nodes; each graded
    run names its node. The gradebook's writes are counted in the file (any process) and in this
    process (the driver): they agree, and each student's grades went in in one transaction."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine
    course = fresh_tiny(tmp_path)
    students = ("a", "b", "c", "d")
    for student in students:
        submit_solution(course, student)
    writes: list[set[str]] = []   # one entry per write transaction of this process: what it wrote
    pending: dict[int, set[str]] = {}

    def executed(conn, cursor, statement, *_):
        verb, _, rest = statement.lstrip().partition(" ")
        if verb.upper() in ("INSERT", "UPDATE", "DELETE"):
            table = rest.split()[1 if verb.upper() != "UPDATE" else 0].strip('"')
            scores = verb.upper() == "UPDATE" and table == "grade" and "auto_score" in rest
            pending.setdefault(id(conn.connection.dbapi_connection), set()).add("scores" if scores else table)

    def committed(conn):
        wrote = pending.pop(id(conn.connection.dbapi_connection), None)
        if wrote:
            writes.append(wrote)
    event.listen(Engine, "after_cursor_execute", executed)
    event.listen(Engine, "commit", committed)
    try:
        before = gradebook_commits(course.gradebook)
        rows = grade(course, "tiny", backend="ray", workers=2)
        after = gradebook_commits(course.gradebook)
    finally:
        event.remove(Engine, "after_cursor_execute", executed)
        event.remove(Engine, "commit", committed)
    full = sum(float(r["max_points"]) for r in rows["a"])
    assert {student: sum(float(r["points"]) for r in got) for student, got in rows.items()} == dict.fromkeys(students, full)
    ran_on = {student: nbformat.read(executed_path(course, "tiny", student, "tiny"), as_version=4).metadata["jaxcourse"]["node"]
              for student in students}
    assert set(ran_on.values()) == two_node_ray, ran_on
    assert after - before == len(writes), (after - before, writes)  # no write came from another process
    assert sum("scores" in wrote for wrote in writes) == len(students), writes  # each student's scores once


def test_ray_backend_without_ray_is_a_clear_error(tiny):
    blocked = ("import sys; sys.modules['ray'] = None\n"
               "from jaxcourse.cli import main\n"
               f"sys.exit(main(['grade', 'tiny', '--course-dir', {str(tiny.root)!r}, '--backend', 'ray']))\n")
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 2 and "pip install -e '.[ray]'" in done.stderr, done.stderr


def test_progress_display_and_summary_line(tmp_path):
    course = fresh_tiny(tmp_path)
    submit_solution(course, "a")
    command = [sys.executable, "-m", "jaxcourse.cli", "grade", "tiny", "--course-dir", str(course.root)]
    live = subprocess.run(command, capture_output=True, text=True)
    assert live.returncode == 0, live.stderr
    assert "grading tiny" in live.stderr and "cells: ok 2" in live.stderr, live.stderr
    assert "graded 1 of 1 submissions with" in live.stdout and "per minute" in live.stdout
    submit_solution(course, "b")
    quiet = subprocess.run([*command, "--quiet"], capture_output=True, text=True)
    assert quiet.returncode == 0 and "grading tiny" not in quiet.stderr, quiet.stderr
    assert "graded 1 of 2 submissions with" in quiet.stdout, quiet.stdout  # a is unchanged and kept


def test_graded_runs_build_figures_without_drawing_them():
    """Drawing PNGs costs CPU nobody reads; a test can still read a figure's data before show()."""
    graded = Sandbox(SandboxSpec("cpu")).run(notebook(
        "import matplotlib.pyplot as plt\nline, = plt.plot([1, 2, 3], [4, 1, 9])\n"
        "print('data', line.get_ydata().tolist())\nplt.show()\n", "print('open after show', plt.get_fignums())\n"))
    outputs = [out for cell in graded.notebook.cells for out in cell.get("outputs", [])]
    assert not any("image/png" in out.get("data", {}) for out in outputs)
    assert "data [4, 1, 9]" in printed(graded) and "open after show []" in printed(graded)
    assert "[figure 1: not drawn in the graded run]" in str(outputs)
    drawn = Sandbox(SandboxSpec("cpu", draw_figures=True)).run(notebook(
        "import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [4, 1, 9])\nplt.show()\n"))
    assert any("image/png" in out.get("data", {}) for out in drawn.notebook.cells[0].outputs)


def test_a_warm_ray_actor_serves_each_notebook_a_fresh_sandbox(local_ray):
    """What an actor keeps between submissions is a started sandbox, never a used one."""
    workers = ray_backend.warm_executors(RunSettings(preimport=PREIMPORT), workers=1, runs=3)
    (execute,) = workers.executors
    try:
        first = printed(execute(notebook("open('/tmp/left-behind', 'w').write('x')\nsecret = 42\nimport sys\n"
                                         "print('pid', __import__('os').getpid())")))
        second = printed(execute(notebook(
            "import os, sys\nprint('file', os.path.exists('/tmp/left-behind'), 'secret' in globals())\n"
            f"print('preloaded', all(m in sys.modules for m in {PREIMPORT!r}))\n")))
    finally:
        workers.close()
    assert "pid" in first and "file False False" in second and "preloaded True" in second, (first, second)


TWO_PROCESS_WORKER = '''
import json, sys
import jax, jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P
port, index = sys.argv[1], int(sys.argv[2])
jax.distributed.initialize(f"127.0.0.1:{port}", num_processes=2, process_id=index, initialization_timeout=60)
mesh = jax.make_mesh((4,), ("d",), axis_types=(jax.sharding.AxisType.Explicit,))
rows = jnp.arange(2.0) + 2 * index
x = jax.make_array_from_process_local_data(NamedSharding(mesh, P("d")), rows, (4,))
total = jax.jit(lambda a: a.sum(), out_shardings=NamedSharding(mesh, P()))(x)
print(json.dumps({"process": jax.process_index(), "total": float(total.addressable_data(0))}))
'''
TWO_PROCESS_LAUNCH = f'''
import json, os, socket, subprocess, sys, tempfile
script = os.path.join(tempfile.mkdtemp(), "worker.py")
open(script, "w").write({TWO_PROCESS_WORKER!r})
with socket.socket() as probe:
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
env = {{**os.environ, "JAX_PLATFORMS": "cpu", "JAX_NUM_CPU_DEVICES": "2"}}
workers = [subprocess.Popen([sys.executable, script, str(port), str(i)], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True) for i in range(2)]
try:
    outs = [w.communicate(timeout=120) for w in workers]
finally:
    for w in workers:
        w.kill()
for out, err in outs:
    print([line for line in out.splitlines() if line.startswith("{{")] or err[-800:])
'''


def test_jax_distributed_runs_between_processes_inside_one_sandbox():
    """dist-05 starts its own worker processes: their CPU collectives (gloo) need the sandbox's
    hostname to resolve, to loopback, as on any machine; the network stays unreachable."""
    execution = Sandbox(SandboxSpec("cpu", Limits(cell_timeout=240))).run(notebook(TWO_PROCESS_LAUNCH))
    out = printed(execution)
    assert out.count('"total": 6.0') == 2, out
