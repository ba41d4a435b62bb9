#!/usr/bin/env python3
"""Supervised training launcher with checkpoint recovery: a TPU companion lab.

    python launch.py --platform tpu --run-dir runs/tpu-first --steps 8 --timeout 180
    python launch.py --platform cpu --run-dir runs/cpu-first --steps 8 --timeout 180

Two processes cooperate:

* the **supervisor** (this script, as you start it) never imports JAX, so it never holds the
  accelerator. It starts the worker with ``JAX_PLATFORMS`` set to ``--platform``, watches the
  worker's heartbeat file, enforces ``--timeout`` for the whole run, forwards SIGTERM/SIGINT
  (a preemption notice) to the worker, restarts the worker from the latest checkpoint after a
  crash (up to ``--max-restarts``), and writes ``run_report.json``;
* the **worker** (this script with ``--worker``, started by the supervisor) refuses to run
  unless ``jax.default_backend()`` is the requested platform, writes a device receipt, trains
  a small MLP regression with optax on fixed synthetic data, and checkpoints parameters,
  optimizer state, step and PRNG key with orbax-checkpoint. Each step's batch comes from
  ``fold_in(key, step)``, so a resumed run replays exactly: its final parameters are bitwise
  identical to those of an uninterrupted run with the same seed on the same platform.

Exit codes: 0 completed; 1 failed (worker crashed more than --max-restarts times, or did not
start in time); 2 usage error (bad arguments, a run folder that already holds checkpoints
without --resume, a changed configuration, a run folder in use); 3 the requested platform is
not available (never retried, never replaced by CPU); 124 --timeout reached (the worker
checkpointed and stopped); 143 preempted by SIGTERM/SIGINT (the worker checkpointed and
stopped; rerun with --resume). See README.md beside this file for the run folder's layout
and every field of run_report.json and the device receipts.

Standalone: standard library, jax, optax, orbax-checkpoint and numpy only.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from labkit import PLATFORMS, now_iso, package_versions, write_json

REPORT_SCHEMA = "tpu-gcp/launch-report/v1"
RECEIPT_SCHEMA = "tpu-gcp/device-receipt/v1"

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_PLATFORM = 0, 1, 2, 3
EXIT_TIMEOUT, EXIT_PREEMPTED = 124, 143
WORKER_PREEMPTED = 75  # the worker stopped cleanly after a checkpoint because it was asked to

# Settings that change the numbers a run produces: a resumed run must use the same ones.
CONFIG_KEYS = ("seed", "hidden", "batch_size", "learning_rate", "data_seed", "n_examples", "n_features")
DATA_SEED = 20240611
N_EXAMPLES, N_FEATURES = 1024, 8







def read_json(path: Path):
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None




def checkpoint_steps(run_dir: Path) -> list[int]:
    """Finalised orbax checkpoints: step folders whose names are plain integers."""
    folder = run_dir / "checkpoints"
    if not folder.is_dir():
        return []
    return sorted(int(p.name) for p in folder.iterdir() if p.is_dir() and p.name.isdigit())


def arguments(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--platform", choices=PLATFORMS, required=True,
                   help="backend the worker must run on; any other backend is an error")
    p.add_argument("--run-dir", required=True, type=Path, help="folder for checkpoints, receipts, logs and the report")
    p.add_argument("--steps", type=int, default=100, help="total optimizer steps of the run (default 100)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="wall-clock limit in seconds for the whole supervised run, restarts included (default 600)")
    p.add_argument("--checkpoint-every", type=int, default=10, metavar="K",
                   help="save a checkpoint every K steps, and always at the last step (default 10)")
    p.add_argument("--resume", action="store_true",
                   help="continue from the latest checkpoint in --run-dir (a fresh start if there is none)")
    p.add_argument("--max-restarts", type=int, default=3, help="restarts after worker crashes (default 3)")
    p.add_argument("--heartbeat-timeout", type=float, default=120.0, metavar="S",
                   help="kill and restart a training worker whose heartbeat is older than S seconds (default 120)")
    p.add_argument("--startup-timeout", type=float, default=600.0, metavar="S",
                   help="seconds a worker may take to import JAX, open the device and compile (default 600)")
    p.add_argument("--grace", type=float, default=30.0, metavar="S",
                   help="seconds a worker has to checkpoint after SIGTERM before SIGKILL (default 30)")
    p.add_argument("--seed", type=int, default=0, help="PRNG seed for initialisation and batch order (default 0)")
    p.add_argument("--hidden", type=int, default=64, help="width of the two hidden layers (default 64)")
    p.add_argument("--batch-size", type=int, default=64)
    p.add_argument("--learning-rate", type=float, default=3e-3)
    p.add_argument("--step-delay", type=float, default=0.0, metavar="S",
                   help="sleep S seconds after each step, to stand in for real work when practising kills")
    # Internal: how the supervisor starts the worker.
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--attempt", type=int, default=0, help=argparse.SUPPRESS)
    p.add_argument("--supervisor-pid", type=int, default=0, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.steps < 0 or args.checkpoint_every < 1 or args.max_restarts < 0 or args.timeout <= 0:
        p.error("--steps must be >= 0, --checkpoint-every >= 1, --max-restarts >= 0 and --timeout > 0")
    args.run_dir = args.run_dir.resolve()
    return args


def run_config(args) -> dict:
    return {"seed": args.seed, "hidden": args.hidden, "batch_size": args.batch_size,
            "learning_rate": args.learning_rate, "data_seed": DATA_SEED,
            "n_examples": N_EXAMPLES, "n_features": N_FEATURES}


# ----------------------------------------------------------------------------------------------
# Worker: the training job. Only this process imports JAX.
# ----------------------------------------------------------------------------------------------

def say(message: str, stream=None) -> None:
    """Print for the supervisor's log; a supervisor that is gone (closed pipe) must not crash us."""
    stream = stream or sys.stdout
    try:
        print(message, file=stream, flush=True)
    except (BrokenPipeError, ValueError):
        devnull = open(os.devnull, "w")
        sys.stdout = sys.stderr = devnull


class StopFlag:
    """Set by SIGTERM/SIGINT; the training loop checkpoints and exits at the next step boundary."""

    def __init__(self):
        self.signal: str | None = None
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._set)

    def _set(self, signum, _frame):
        self.signal = signal.Signals(signum).name


def worker_main(args) -> int:
    stop = StopFlag()  # first, so a preemption during the slow imports is not lost
    t_start = time.time()
    run_dir = args.run_dir
    hb_path = run_dir / "heartbeat.json"
    receipt_path = run_dir / "receipts" / f"attempt-{args.attempt:03d}.json"

    def heartbeat(phase: str, step: int | None) -> None:
        write_json(hb_path, {"attempt": args.attempt, "pid": os.getpid(), "phase": phase,
                             "step": step, "time": time.time()})

    heartbeat("importing", None)
    receipt = {"schema": RECEIPT_SCHEMA, "attempt": args.attempt, "pid": os.getpid(),
               "hostname": socket.gethostname(), "started_at": now_iso(),
               "requested_platform": args.platform, "jax_platforms_env": os.environ.get("JAX_PLATFORMS"),
               "observed_platform": None, "platform_ok": False, "devices": [], "device_count": 0,
               "local_device_count": 0, "process_index": None, "process_count": None,
               "placement_check": None, "versions": package_versions(), "error": None,
               "start_step": None, "end_step": None, "first_step_after_s": None, "outcome": "starting",
               "ended_at": None}

    import numpy as np
    import jax
    import jax.numpy as jnp

    # 1. The platform check: the requested backend, or a loud failure. Never a CPU fallback.
    try:
        devices = jax.devices()
        observed = jax.default_backend()
    except RuntimeError as exc:  # JAX_PLATFORMS=<absent backend> raises here
        devices, observed = [], None
        receipt["error"] = f"{type(exc).__name__}: {exc}"
    receipt["observed_platform"] = observed
    receipt["devices"] = [{"id": d.id, "platform": d.platform, "device_kind": d.device_kind,
                           "process_index": d.process_index} for d in devices]
    receipt["device_count"] = len(devices)
    if devices:
        receipt.update(local_device_count=jax.local_device_count(), process_index=jax.process_index(),
                       process_count=jax.process_count())
    ok = observed == args.platform and bool(devices) and all(d.platform == args.platform for d in devices)
    if not ok:
        receipt["error"] = receipt["error"] or (
            f"observed backend {observed!r} (devices {[d.platform for d in devices]}) is not the requested {args.platform!r}")
        receipt.update(outcome="platform_unavailable", ended_at=now_iso())
        write_json(receipt_path, receipt)
        say(f"PLATFORM UNAVAILABLE: requested {args.platform!r}, {receipt['error']}; "
            "refusing to fall back to another backend", stream=sys.stderr)
        return EXIT_PLATFORM

    # 2. A placement check with an independent NumPy answer: where did a completed result live?
    x_host = np.arange(24, dtype=np.float32).reshape(8, 3) / 8
    w_host = np.array([0.5, -0.25, 1.0], dtype=np.float32)
    y = jax.jit(lambda a, b: a @ b + jnp.float32(0.125))(jax.device_put(x_host, devices[0]),
                                                         jax.device_put(w_host, devices[0]))
    y.block_until_ready()
    err = float(np.max(np.abs(np.asarray(y, np.float64) - (x_host.astype(np.float64) @ w_host + 0.125))))
    out_platforms = sorted({d.platform for d in y.devices()})
    receipt["placement_check"] = {"output_devices": [str(d) for d in y.devices()], "output_platforms": out_platforms,
                                  "max_abs_error": err, "tolerance": 1e-5,
                                  "ok": out_platforms == [args.platform] and err < 1e-5}
    receipt["platform_ok"] = receipt["placement_check"]["ok"]
    write_json(receipt_path, receipt)
    if not receipt["platform_ok"]:
        say(f"PLATFORM CHECK FAILED: {receipt['placement_check']}", stream=sys.stderr)
        return EXIT_PLATFORM
    say(f"device receipt: requested {args.platform}, observed {observed}, "
        f"{len(devices)} x {devices[0].device_kind}")

    import optax
    import orbax.checkpoint as ocp
    from absl import logging as absl_logging
    absl_logging.set_verbosity(absl_logging.WARNING)

    # 3. The job: fixed synthetic regression data (NumPy, identical on every platform), an MLP.
    rng = np.random.default_rng(DATA_SEED)
    X = rng.normal(size=(N_EXAMPLES, N_FEATURES)).astype(np.float32)
    w_true = rng.normal(size=(N_FEATURES,)).astype(np.float32)
    Y = (np.sin(X @ w_true) + 0.1 * rng.normal(size=N_EXAMPLES)).astype(np.float32)[:, None]
    X_dev, Y_dev = jax.device_put(X, devices[0]), jax.device_put(Y, devices[0])

    def init_params(key):
        sizes = [N_FEATURES, args.hidden, args.hidden, 1]
        keys = jax.random.split(key, len(sizes) - 1)
        return [{"w": jax.random.normal(k, (m, n), jnp.float32) / jnp.sqrt(jnp.float32(m)),
                 "b": jnp.zeros((n,), jnp.float32)} for k, m, n in zip(keys, sizes[:-1], sizes[1:])]

    def forward(params, x):
        for layer in params[:-1]:
            x = jnp.tanh(x @ layer["w"] + layer["b"])
        return x @ params[-1]["w"] + params[-1]["b"]

    def loss_fn(params, x, y):
        return jnp.mean((forward(params, x) - y) ** 2)

    optimizer = optax.adam(args.learning_rate)

    @jax.jit
    def train_step(params, opt_state, key, step):
        # The batch depends only on (key, step): replaying step s after a restart draws the same batch.
        idx = jax.random.randint(jax.random.fold_in(key, step), (args.batch_size,), 0, N_EXAMPLES)
        loss, grads = jax.value_and_grad(loss_fn)(params, X_dev[idx], Y_dev[idx])
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    @jax.jit
    def init_state(seed):  # one compiled program instead of dozens of eager dispatches
        init_key, data_key = jax.random.split(jax.random.key(seed))
        params = init_params(init_key)
        return params, optimizer.init(params), jax.random.key_data(data_key)

    params, opt_state, key_data = init_state(args.seed)
    state = {"params": params, "opt_state": opt_state,
             "step": np.asarray(0, np.int64), "key": np.asarray(key_data)}

    manager = ocp.CheckpointManager(
        run_dir / "checkpoints",
        options=ocp.CheckpointManagerOptions(
            preservation_policy=ocp.checkpoint_managers.LatestN(n=3),
            cleanup_tmp_directories=True,  # a worker killed mid-save leaves a temporary folder
            enable_async_checkpointing=True, create=True))
    latest = manager.latest_step()
    if latest is not None:
        state = manager.restore(latest, args=ocp.args.StandardRestore(state))
        say(f"restored checkpoint step {latest}")
    start = int(state["step"])
    params, opt_state = state["params"], state["opt_state"]
    key = jax.random.wrap_key_data(jnp.asarray(state["key"]))
    receipt["start_step"] = receipt["end_step"] = start
    write_json(receipt_path, receipt)

    def save(step: int) -> None:
        if manager.latest_step() == step:
            return
        manager.save(step, args=ocp.args.StandardSave(
            {"params": params, "opt_state": opt_state, "step": np.asarray(step, np.int64),
             "key": np.asarray(jax.random.key_data(key))}), force=True)  # asynchronous: returns early

    metrics = open(run_dir / "metrics.jsonl", "a")
    outcome = "completed"
    heartbeat("compiling", start)
    step = start
    while step < args.steps:
        if stop.signal or os.getppid() != args.supervisor_pid:
            outcome = "preempted" if stop.signal else "supervisor_lost"
            break
        params, opt_state, loss = train_step(params, opt_state, key, jnp.int32(step))
        loss = float(loss)  # waits for the step to finish on the device
        if step == start:
            receipt["first_step_after_s"] = round(time.time() - t_start, 3)
            say(f"first step {start + 1} done {receipt['first_step_after_s']:.1f}s after worker start "
                "(imports, device, restore, compilation)")
        step += 1
        receipt["end_step"] = step
        metrics.write(json.dumps({"attempt": args.attempt, "step": step, "loss": loss, "time": time.time()}) + "\n")
        metrics.flush()
        heartbeat("training", step)
        if step % args.checkpoint_every == 0 or step == args.steps:
            save(step)
        if args.step_delay:
            time.sleep(args.step_delay)
    heartbeat("saving", step)
    if step > start or latest is None:
        save(step)  # the stopping point, so a resumed run repeats no work
    manager.wait_until_finished()  # an async save must be on disk before we report or exit
    manager.close()
    metrics.close()

    if outcome == "completed":
        flat = {jax.tree_util.keystr(path): np.asarray(leaf)
                for path, leaf in jax.tree_util.tree_leaves_with_path(params)}
        np.savez(run_dir / "final_params.npz", **flat)
        digest = hashlib.sha256()
        for name in sorted(flat):
            digest.update(name.encode() + flat[name].tobytes())
        final_loss = float(jax.jit(loss_fn)(params, X_dev, Y_dev))
        write_json(run_dir / "final.json", {"step": step, "full_batch_loss": final_loss,
                                            "params_sha256": digest.hexdigest(), "params_file": "final_params.npz"})
        say(f"completed step {step}: full-batch loss {final_loss:.6f}")
    else:
        say(f"stopped at step {step} ({outcome}, {stop.signal or 'parent gone'}); checkpoint saved")
    receipt.update(outcome=outcome, ended_at=now_iso())
    write_json(receipt_path, receipt)
    heartbeat("exited", step)
    return EXIT_OK if outcome == "completed" else WORKER_PREEMPTED


# ----------------------------------------------------------------------------------------------
# Supervisor: no JAX here, so it never holds the accelerator the worker needs.
# ----------------------------------------------------------------------------------------------

class Supervisor:
    POLL = 0.1

    def __init__(self, args):
        self.args = args
        self.run_dir: Path = args.run_dir
        self.logs = self.run_dir / "logs"
        self.stop_signal: str | None = None
        self.child: subprocess.Popen | None = None
        self.log_file = None
        self.last_beat: dict = {}

    def log(self, message: str) -> None:
        line = f"{now_iso()} supervisor: {message}"
        print(line, flush=True)
        if self.log_file:
            self.log_file.write(line + "\n")
            self.log_file.flush()

    def _on_signal(self, signum, _frame):
        self.stop_signal = signal.Signals(signum).name  # forwarded by the monitor loop

    def _pump(self, stream, path: Path, attempt: int) -> None:
        with open(path, "ab") as out:
            for raw in iter(stream.readline, b""):
                out.write(raw)
                out.flush()
                sys.stdout.write(f"[worker {attempt}] {raw.decode(errors='replace')}")
                sys.stdout.flush()

    def spawn(self, attempt: int) -> tuple[subprocess.Popen, threading.Thread, Path]:
        a = self.args
        argv = [sys.executable, os.path.abspath(__file__), "--worker", "--attempt", str(attempt),
                "--supervisor-pid", str(os.getpid()), "--platform", a.platform, "--run-dir", str(self.run_dir),
                "--steps", str(a.steps), "--checkpoint-every", str(a.checkpoint_every), "--seed", str(a.seed),
                "--hidden", str(a.hidden), "--batch-size", str(a.batch_size),
                "--learning-rate", repr(a.learning_rate), "--step-delay", repr(a.step_delay)]
        env = dict(os.environ, JAX_PLATFORMS=a.platform, PYTHONUNBUFFERED="1")
        log_path = self.logs / f"worker-attempt-{attempt:03d}.log"
        # A session of its own: terminal signals reach the supervisor, which decides what to forward.
        child = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
        pump = threading.Thread(target=self._pump, args=(child.stdout, log_path, attempt), daemon=True)
        pump.start()
        (self.run_dir / "worker.pid").write_text(f"{child.pid}\n")
        return child, pump, log_path

    def monitor(self, child: subprocess.Popen, attempt: int, deadline: float) -> str:
        """Wait for the worker; return why it ended (before classification by exit code)."""
        a = self.args
        started = time.time()
        term_sent_at: float | None = None
        reason = "exited"
        while child.poll() is None:
            now = time.time()
            hb = read_json(self.run_dir / "heartbeat.json") or {}
            if hb.get("attempt") == attempt and hb.get("pid") == child.pid:
                self.last_beat = hb
            if term_sent_at is None:
                if self.stop_signal:
                    reason = "preempted"
                    self.log(f"received {self.stop_signal}: forwarding SIGTERM to worker {child.pid}")
                elif now >= deadline:
                    reason = "timeout"
                    self.log(f"--timeout {a.timeout:g}s reached: sending SIGTERM to worker {child.pid}")
                else:
                    # Between training steps a beat is due every --heartbeat-timeout seconds; other
                    # phases (imports, device start, restore, compilation, final save) get --startup-timeout.
                    mine = self.last_beat.get("attempt") == attempt
                    age = now - (float(self.last_beat["time"]) if mine else started)
                    phase = self.last_beat.get("phase") if mine else "starting"
                    limit = a.heartbeat_timeout if phase == "training" else a.startup_timeout
                    if age > limit:
                        reason = "heartbeat_stale" if phase == "training" else "startup_timeout"
                        self.log(f"worker {child.pid}: no heartbeat for {age:.1f}s in phase {phase!r} "
                                 f"(limit {limit:g}s): SIGKILL")
                        child.kill()
                if reason in ("preempted", "timeout"):
                    child.send_signal(signal.SIGTERM)
                    term_sent_at = now
            elif now - term_sent_at > a.grace:
                self.log(f"worker {child.pid} did not stop within --grace {a.grace:g}s: SIGKILL")
                child.kill()
                term_sent_at = float("inf")
            time.sleep(self.POLL)
        return reason

    def run(self) -> int:
        a = self.args
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for sub in ("logs", "receipts"):
            (self.run_dir / sub).mkdir(exist_ok=True)
        import fcntl
        lock = open(self.run_dir / ".lock", "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            print(f"error: another launcher is using {self.run_dir}", file=sys.stderr)
            return EXIT_USAGE
        self.log_file = open(self.logs / "supervisor.log", "a")

        existing = checkpoint_steps(self.run_dir)
        config_path = self.run_dir / "config.json"
        config = run_config(a)
        if existing and not a.resume:
            print(f"error: {self.run_dir} already holds checkpoints (steps {existing}); "
                  "pass --resume to continue that run, or choose a new --run-dir", file=sys.stderr)
            return EXIT_USAGE
        saved = read_json(config_path)
        if a.resume and existing and saved is not None:
            changed = {k: (saved.get(k), config[k]) for k in CONFIG_KEYS if saved.get(k) != config[k]}
            if changed:
                print(f"error: --resume with a changed configuration {changed} (saved, now); "
                      "the replay would not be the same run", file=sys.stderr)
                return EXIT_USAGE
        if not existing:
            for stale in ("final_params.npz", "final.json", "heartbeat.json"):
                (self.run_dir / stale).unlink(missing_ok=True)
        write_json(config_path, config)

        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._on_signal)

        start_wall = time.time()
        deadline = start_wall + a.timeout
        first_attempt = len(list(self.logs.glob("worker-attempt-*.log")))  # numbering goes on across resumes
        history_path = self.run_dir / "run_history.jsonl"
        invocation = sum(1 for _ in open(history_path)) if history_path.exists() else 0
        resumed_from = existing[-1] if (a.resume and existing) else None
        report = {
            "schema": REPORT_SCHEMA, "status": "running", "exit_code": None, "message": "",
            "invocation": invocation, "requested_platform": a.platform, "observed_platform": None,
            "steps_requested": a.steps, "final_step": None, "checkpoint_steps": existing,
            "resume_flag": a.resume, "resumed_from_step": resumed_from,
            "restarts": 0, "max_restarts": a.max_restarts, "timeout_s": a.timeout,
            "heartbeat_timeout_s": a.heartbeat_timeout, "startup_timeout_s": a.startup_timeout,
            "grace_s": a.grace, "checkpoint_every": a.checkpoint_every, "config": config,
            "attempts": [], "final": None, "started_at": now_iso(), "finished_at": None, "wall_time_s": None,
            "supervisor": {"pid": os.getpid(), "hostname": socket.gethostname(), "python": sys.executable,
                           "argv": sys.argv, "versions": package_versions()},
            "files": {"config": "config.json", "receipts": "receipts/", "logs": "logs/",
                      "checkpoints": "checkpoints/", "metrics": "metrics.jsonl", "heartbeat": "heartbeat.json",
                      "final_params": "final_params.npz", "final": "final.json", "history": "run_history.jsonl"},
        }
        self.log(f"run {self.run_dir}: platform {a.platform}, {a.steps} steps, timeout {a.timeout:g}s, "
                 + (f"resuming from step {resumed_from}" if resumed_from is not None else "fresh start"))

        status, code, message = "failed", EXIT_FAILED, ""
        attempt = first_attempt
        while True:
            if self.stop_signal:
                status, code, message = "preempted", EXIT_PREEMPTED, f"{self.stop_signal} before the worker started"
                break
            if time.time() >= deadline:
                status, code, message = "timeout", EXIT_TIMEOUT, "timeout reached between attempts"
                break
            t0 = time.time()
            self.last_beat = {}
            child, pump, log_path = self.spawn(attempt)
            self.log(f"attempt {attempt}: worker pid {child.pid} (JAX_PLATFORMS={a.platform})")
            reason = self.monitor(child, attempt, deadline)
            rc = child.wait()
            pump.join(timeout=10)
            hb = read_json(self.run_dir / "heartbeat.json") or {}
            if hb.get("attempt") == attempt and hb.get("pid") == child.pid:
                self.last_beat = hb
            receipt = read_json(self.run_dir / "receipts" / f"attempt-{attempt:03d}.json") or {}
            if rc == EXIT_OK:
                outcome = "completed"
            elif rc == EXIT_PLATFORM:
                outcome = "platform_unavailable"
            elif reason in ("preempted", "timeout", "heartbeat_stale", "startup_timeout"):
                outcome = reason
            elif rc == WORKER_PREEMPTED:
                outcome = "supervisor_lost"
            else:
                outcome = "crashed"
            signame = signal.Signals(-rc).name if rc < 0 else None
            report["attempts"].append({
                "attempt": attempt, "pid": child.pid, "outcome": outcome, "exit_code": rc, "signal": signame,
                # A killed worker never finished its receipt: its last heartbeat says how far it got.
                "start_step": receipt.get("start_step"),
                "end_step": receipt.get("end_step") if receipt.get("ended_at") else self.last_beat.get("step"),
                "observed_platform": receipt.get("observed_platform"),
                "started_at": _dt.datetime.fromtimestamp(t0, _dt.timezone.utc).isoformat(timespec="milliseconds"),
                "duration_s": round(time.time() - t0, 3),
                "receipt": f"receipts/attempt-{attempt:03d}.json" if receipt else None,
                "log": str(log_path.relative_to(self.run_dir))})
            if receipt.get("observed_platform"):
                report["observed_platform"] = receipt["observed_platform"]
            self.log(f"attempt {attempt}: {outcome} (exit {rc}{', ' + signame if signame else ''})")
            attempt += 1
            if outcome == "completed":
                status, code = "completed", EXIT_OK
                break
            if outcome == "platform_unavailable":
                status, code = "platform_unavailable", EXIT_PLATFORM
                message = (f"requested platform {a.platform!r} is not available: {receipt.get('error')}; "
                           "not retried and never replaced by CPU")
                print(f"error: {message}", file=sys.stderr)
                break
            if outcome == "preempted":
                status, code = "preempted", EXIT_PREEMPTED
                message = f"{self.stop_signal}: worker checkpointed and stopped; rerun with --resume"
                break
            if outcome == "timeout":
                status, code = "timeout", EXIT_TIMEOUT
                message = f"--timeout {a.timeout:g}s reached; rerun with --resume to continue"
                break
            if report["restarts"] >= a.max_restarts:
                status, code = "failed", EXIT_FAILED
                message = f"worker failed ({outcome}) and --max-restarts {a.max_restarts} is used up"
                print(f"error: {message}", file=sys.stderr)
                break
            if self.stop_signal or time.time() >= deadline:
                continue  # reported at the top of the loop
            report["restarts"] += 1
            latest = checkpoint_steps(self.run_dir)
            self.log(f"restart {report['restarts']}/{a.max_restarts} from "
                     + (f"checkpoint step {latest[-1]}" if latest else "step 0 (no checkpoint yet)"))
            time.sleep(min(2.0, 0.5 * report["restarts"]))

        steps_on_disk = checkpoint_steps(self.run_dir)
        final = read_json(self.run_dir / "final.json") if status == "completed" else None
        report.update(status=status, exit_code=code, message=message, checkpoint_steps=steps_on_disk,
                      final_step=steps_on_disk[-1] if steps_on_disk else None, final=final,
                      finished_at=now_iso(), wall_time_s=round(time.time() - start_wall, 3))
        write_json(self.run_dir / "run_report.json", report)
        with open(history_path, "a") as history:
            history.write(json.dumps(report) + "\n")
        self.log(f"{status} (exit {code}); report {self.run_dir / 'run_report.json'}")
        return code


def main(argv=None) -> int:
    args = arguments(argv)
    if args.worker:
        return worker_main(args)
    return Supervisor(args).run()


if __name__ == "__main__":
    sys.exit(main())
