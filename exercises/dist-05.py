# Lesson dist-05: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/dist-05.py (or tpu, or gpu); it ends PASS: dist-05

# Many processes, one program: two JAX processes on 127.0.0.1 build one global batch together.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # this script imports no JAX; each worker is told "cpu"

import json
import socket
import subprocess
import sys
import tempfile
import time

WORKER_SOURCE = '''\
"""One program for every process. Start it as: python worker.py PORT PROCESS_ID NUM_PROCESSES"""
import json
import sys

import numpy as np
import jax
import jax.numpy as jnp
from jax.experimental import multihost_utils
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

GLOBAL_BATCH, FEATURES = 8, 3


def load_rows(start, stop):
    """Stand-in for a data loader: row r of the data set is [3r, 3r + 1, 3r + 2]."""
    return np.arange(start * FEATURES, stop * FEATURES, dtype=np.float32).reshape(stop - start, FEATURES)


def row_sharding():
    """The batch's rows split over every device of every process."""
    mesh = jax.make_mesh((jax.device_count(),), ("data",), axis_types=(AxisType.Explicit,))
    return NamedSharding(mesh, P("data"))


def run():
    sharding = row_sharding()
    rows = GLOBAL_BATCH // jax.process_count()               # rows per PROCESS
    start = jax.process_index() * rows
    local = load_rows(start, start + rows)                   # this process's rows, and no others
    batch = jax.make_array_from_process_local_data(sharding, local, (GLOBAL_BATCH, FEATURES))
    total = jax.jit(jnp.sum)(batch)                          # every process runs the same computations
    column_mean = jax.jit(lambda b: b.mean(axis=0))(batch)
    return {
        "process": jax.process_index(), "processes": jax.process_count(),
        "devices": jax.device_count(), "local_devices": [d.id for d in jax.local_devices()],
        "loaded_rows": [start, start + rows], "global_shape": list(batch.shape),
        "type": str(jax.typeof(batch)),
        "shards": [[s.device.id, s.index[0].start, s.index[0].stop] for s in batch.addressable_shards],
        "total": float(total), "column_mean": np.asarray(column_mean).tolist(),
    }


def outcome(make):
    """make()'s result, or the exception it raised (class name and the start of its message)."""
    try:
        return make()
    except Exception as err:
        return f"{type(err).__name__}: {str(err).splitlines()[0][:100]}"


def summary(x):
    return {"global_shape": list(x.shape), "total": float(jax.jit(jnp.sum)(x))}


def variants():
    """Other ways to build the same batch (two of them wrong) and to read it back."""
    sharding = row_sharding()
    rows = GLOBAL_BATCH // jax.process_count()
    local = load_rows(jax.process_index() * rows, (jax.process_index() + 1) * rows)
    batch = jax.make_array_from_process_local_data(sharding, local)
    # Mistake 1: rows per DEVICE taken as rows per process.
    per_device = GLOBAL_BATCH // jax.device_count()
    few = load_rows(jax.process_index() * per_device, (jax.process_index() + 1) * per_device)
    requested = []

    def loader(index):                                       # for jax.make_array_from_callback
        start, stop, _ = index[0].indices(GLOBAL_BATCH)
        requested.append([start, stop])
        return load_rows(start, stop)

    jax.make_array_from_callback((GLOBAL_BATCH, FEATURES), sharding, loader)
    return {
        "per_device_rows": outcome(lambda: summary(jax.make_array_from_process_local_data(sharding, few))),
        "per_device_rows_with_shape": outcome(
            lambda: list(jax.make_array_from_process_local_data(sharding, few, (GLOBAL_BATCH, FEATURES)).shape)),
        # Mistake 2: device_put of this process's rows.
        "device_put_local": outcome(lambda: list(jax.device_put(local, sharding).shape)),
        "fully_addressable": batch.is_fully_addressable,
        "np_asarray": outcome(lambda: list(np.asarray(batch).shape)),
        "allgather": np.asarray(multihost_utils.process_allgather(batch, tiled=True))[:, 0].tolist(),
        "callback_rows": requested,
    }


if __name__ == "__main__":
    port, process_id, num_processes = (int(arg) for arg in sys.argv[1:4])
    jax.distributed.initialize(coordinator_address=f"127.0.0.1:{port}", num_processes=num_processes,
                               process_id=process_id, initialization_timeout=30)
    print(json.dumps({"run": run(), "variants": variants()}), flush=True)
'''


def _tail(path, chars=1200):
    with open(path) as f:
        return f.read()[-chars:]


def run_workers(script, num_processes, timeout=60.0, devices_per_process=2):
    """Start num_processes copies of script on 127.0.0.1; return each one's last printed JSON line.

    Every copy gets the same coordinator port and its own process id. If a worker fails, or the run
    outlives `timeout` seconds, all workers are stopped and RuntimeError / TimeoutError is raised.
    """
    with socket.socket() as probe:              # port 0: the operating system picks a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "JAX_PLATFORMS": "cpu", "JAX_NUM_CPU_DEVICES": str(devices_per_process)}
    logs = tempfile.mkdtemp(prefix="dist05-logs-")
    workers = []
    try:
        for i in range(num_processes):
            with open(f"{logs}/{i}.out", "w") as out, open(f"{logs}/{i}.err", "w") as err:
                workers.append(subprocess.Popen(
                    [sys.executable, script, str(port), str(i), str(num_processes)],
                    env=env, stdout=out, stderr=err))
        deadline = time.monotonic() + timeout
        while True:
            codes = [w.poll() for w in workers]
            failed = [i for i, code in enumerate(codes) if code not in (None, 0)]
            if failed:
                raise RuntimeError(f"worker {failed[0]} exited with status {codes[failed[0]]}; all workers "
                                   f"were stopped. Its stderr ends with:\n{_tail(f'{logs}/{failed[0]}.err')}")
            if None not in codes:
                break
            if time.monotonic() > deadline:
                waiting = [i for i, code in enumerate(codes) if code is None]
                raise TimeoutError(f"workers {waiting} were still running after {timeout:g} s, so all workers "
                                   f"were stopped. Worker {waiting[0]}'s stderr ends with:\n"
                                   f"{_tail(f'{logs}/{waiting[0]}.err', 400) or '(nothing)'}")
            time.sleep(0.05)
        reports = []
        for i in range(num_processes):
            # Gloo, JAX's CPU collectives library, prints to stdout too, from several threads and a
            # few words at a time: a report can start in the middle of one of its lines.
            found = []
            for line in _tail(f"{logs}/{i}.out", 10**6).splitlines():
                if "{" in line:
                    try:
                        found.append(json.JSONDecoder().raw_decode(line, line.index("{"))[0])
                    except json.JSONDecodeError:
                        pass
            if not found:
                raise RuntimeError(f"worker {i} exited normally but printed no JSON line")
            reports.append(found[-1])
        return reports
    finally:                                    # whatever happened above: no worker outlives this call
        for w in workers:
            if w.poll() is None:
                w.kill()
            w.wait()

script = os.path.join(tempfile.mkdtemp(prefix="dist05-"), "worker.py")
with open(script, "w") as f:
    f.write(WORKER_SOURCE)
started = time.perf_counter()
results = run_workers(script, num_processes=2, timeout=60)
seconds = time.perf_counter() - started
runs = [r["run"] for r in results]
for r in runs:
    print(f"process {r['process']} of {r['processes']}: {r['devices']} devices, local {r['local_devices']}, "
          f"loaded rows {r['loaded_rows'][0]}..{r['loaded_rows'][1] - 1}")
    for device, first, stop in r["shards"]:
        print(f"    device {device} holds rows {first}..{stop - 1} of the global {r['type']} batch")
print("every process computed: total", runs[0]["total"], "| column mean", runs[0]["column_mean"])
print("rows per device taken as rows per process:", results[0]["variants"]["per_device_rows"])
print(f"two worker processes started, ran and stopped in {seconds:.1f} s")

assert [r["process"] for r in runs] == [0, 1] and all(r["processes"] == 2 for r in runs)
assert all(r["devices"] == 4 and len(r["local_devices"]) == 2 for r in runs)
assert not set(runs[0]["local_devices"]) & set(runs[1]["local_devices"])     # each device in one process
assert [r["loaded_rows"] for r in runs] == [[0, 4], [4, 8]]
assert all(r["global_shape"] == [8, 3] for r in runs)
assert [[s[1:] for s in r["shards"]] for r in runs] == [[[0, 2], [2, 4]], [[4, 6], [6, 8]]]
assert all(r["total"] == 276.0 and r["column_mean"] == [10.5, 11.5, 12.5] for r in runs)
assert all(r["variants"]["per_device_rows"] == {"global_shape": [4, 3], "total": 66.0} for r in results)
assert all(r["variants"]["device_put_local"].startswith("AssertionError") for r in results)
print("PASS: dist-05")
