"""The TPU companion labs in resources/tpu-gcp/, run on CPU as real processes with real signals.

launch.py: an uninterrupted run is the reference; a run whose worker is SIGKILLed (and later
hangs), and a run preempted with SIGTERM then resumed, must end with bitwise-identical
parameters. The timeout is enforced, an absent platform fails without a CPU fallback, and the
report and receipts carry the documented fields. precision_profile.py: the table has the
documented structure, its errors are ordered and bounded, and --trace writes an xplane.pb.
"""
from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path

import numpy as np
import pytest

LAB = Path(__file__).resolve().parents[1] / "resources" / "tpu-gcp"
LAUNCH, PRECISION = LAB / "launch.py", LAB / "precision_profile.py"
STEPS, EVERY = 30, 5
WAIT = 240  # seconds for any one launcher run: room for a slow, shared CI machine

# The documented fields (resources/tpu-gcp/README.md).
REPORT_FIELDS = {"schema", "status", "exit_code", "message", "invocation", "requested_platform",
                 "observed_platform", "steps_requested", "final_step", "checkpoint_steps", "resume_flag",
                 "resumed_from_step", "restarts", "max_restarts", "timeout_s", "heartbeat_timeout_s",
                 "startup_timeout_s", "grace_s", "checkpoint_every", "config", "attempts", "final",
                 "started_at", "finished_at", "wall_time_s", "supervisor", "files"}
ATTEMPT_FIELDS = {"attempt", "pid", "outcome", "exit_code", "signal", "start_step", "end_step",
                  "observed_platform", "started_at", "duration_s", "receipt", "log"}
RECEIPT_FIELDS = {"schema", "attempt", "pid", "hostname", "started_at", "requested_platform",
                  "jax_platforms_env", "observed_platform", "platform_ok", "devices", "device_count",
                  "local_device_count", "process_index", "process_count", "placement_check", "versions",
                  "error", "start_step", "end_step", "first_step_after_s", "outcome", "ended_at"}
PRECISION_COLUMNS = ["name", "kind", "input_dtype", "compute", "output_dtype", "precision", "max_abs_error",
                     "mean_abs_error", "rel_error", "bound_ratio", "median_time_ms", "note"]


def env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "JAX_PLATFORMS"} | {"PYTHONUNBUFFERED": "1"}


def launch_argv(run_dir: Path, *extra: str) -> list[str]:
    return [sys.executable, str(LAUNCH), "--platform", "cpu", "--run-dir", str(run_dir), "--steps", str(STEPS),
            "--checkpoint-every", str(EVERY), "--timeout", "600", *extra]  # a later --timeout wins


def run(argv: list[str], timeout: float = WAIT) -> subprocess.CompletedProcess:
    return subprocess.run(argv, env=env(), capture_output=True, text=True, timeout=timeout)


def start(argv: list[str], log: Path) -> subprocess.Popen:
    with open(log, "w") as out:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(argv, env=env(), stdout=out, stderr=subprocess.STDOUT)


def finish(proc: subprocess.Popen, log: Path) -> int:
    try:
        return proc.wait(timeout=WAIT)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"launcher did not finish in {WAIT}s:\n{log.read_text()[-3000:]}")


def wait_for_step(run_dir: Path, proc: subprocess.Popen, log: Path, step: int, attempt: int) -> dict:
    """The heartbeat of worker `attempt` once it has trained past `step`."""
    deadline = time.time() + WAIT
    while time.time() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"launcher exited ({proc.returncode}) before step {step}:\n{log.read_text()[-3000:]}")
        try:
            beat = json.loads((run_dir / "heartbeat.json").read_text())
        except (OSError, ValueError):
            beat = {}
        if beat.get("attempt") == attempt and beat.get("phase") == "training" and beat["step"] >= step:
            return beat
        time.sleep(0.02)
    pytest.fail(f"worker {attempt} never reached step {step}:\n{log.read_text()[-3000:]}")


def report(run_dir: Path) -> dict:
    return json.loads((run_dir / "run_report.json").read_text())


def assert_bitwise_equal(run_dir: Path, reference_dir: Path) -> None:
    with np.load(run_dir / "final_params.npz") as got, np.load(reference_dir / "final_params.npz") as want:
        assert sorted(got.files) == sorted(want.files)
        for name in want.files:
            assert got[name].dtype == want[name].dtype and got[name].shape == want[name].shape, name
            assert got[name].tobytes() == want[name].tobytes(), f"{name} differs from the uninterrupted run"
    assert report(run_dir)["final"]["params_sha256"] == report(reference_dir)["final"]["params_sha256"]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> Path:
    run_dir = tmp_path_factory.mktemp("tpu-lab") / "uninterrupted"
    done = run(launch_argv(run_dir))
    assert done.returncode == 0, done.stdout + done.stderr
    return run_dir


def test_report_and_receipt_have_the_documented_fields(uninterrupted):
    rep = report(uninterrupted)
    assert REPORT_FIELDS <= set(rep), REPORT_FIELDS - set(rep)
    assert rep["schema"] == "tpu-gcp/launch-report/v1"
    assert (rep["status"], rep["exit_code"], rep["restarts"]) == ("completed", 0, 0)
    assert rep["requested_platform"] == rep["observed_platform"] == "cpu"
    assert rep["final_step"] == STEPS and rep["checkpoint_steps"][-1] == STEPS
    assert set(rep["final"]) >= {"step", "full_batch_loss", "params_sha256", "params_file"}
    assert rep["resumed_from_step"] is None and rep["resume_flag"] is False
    [attempt] = rep["attempts"]
    assert ATTEMPT_FIELDS <= set(attempt), ATTEMPT_FIELDS - set(attempt)
    assert (attempt["outcome"], attempt["start_step"], attempt["end_step"]) == ("completed", 0, STEPS)

    receipt = json.loads((uninterrupted / attempt["receipt"]).read_text())
    assert RECEIPT_FIELDS <= set(receipt), RECEIPT_FIELDS - set(receipt)
    assert receipt["schema"] == "tpu-gcp/device-receipt/v1"
    assert receipt["requested_platform"] == receipt["observed_platform"] == receipt["jax_platforms_env"] == "cpu"
    assert receipt["platform_ok"] and receipt["placement_check"]["ok"]
    assert receipt["placement_check"]["output_platforms"] == ["cpu"]
    assert receipt["devices"] and all(d["platform"] == "cpu" for d in receipt["devices"])
    for package in ("jax", "jaxlib", "numpy", "optax", "orbax-checkpoint"):
        assert receipt["versions"][package] == metadata.version(package)
    assert receipt["error"] is None and receipt["outcome"] == "completed"

    assert (uninterrupted / attempt["log"]).read_text().strip()
    assert (uninterrupted / "logs" / "supervisor.log").read_text().strip()
    metrics = [json.loads(line) for line in (uninterrupted / "metrics.jsonl").read_text().splitlines()]
    assert [m["step"] for m in metrics] == list(range(1, STEPS + 1))


def test_sigkilled_then_hung_worker_is_restarted_and_replays_bitwise(uninterrupted, tmp_path):
    run_dir, log = tmp_path / "crash", tmp_path / "crash.log"
    proc = start(launch_argv(run_dir, "--step-delay", "0.1", "--heartbeat-timeout", "6", "--max-restarts", "3"), log)
    beat = wait_for_step(run_dir, proc, log, 12, attempt=0)
    os.kill(beat["pid"], signal.SIGKILL)  # a crash: no chance to checkpoint
    beat = wait_for_step(run_dir, proc, log, 22, attempt=1)
    os.kill(beat["pid"], signal.SIGSTOP)  # a hang: alive, silent; only the heartbeat shows it
    assert finish(proc, log) == 0, log.read_text()

    rep = report(run_dir)
    assert (rep["status"], rep["restarts"]) == ("completed", 2)
    first, hung, last = rep["attempts"]
    assert (first["outcome"], first["signal"]) == ("crashed", "SIGKILL")
    assert (hung["outcome"], hung["signal"]) == ("heartbeat_stale", "SIGKILL")
    assert last["outcome"] == "completed"
    for before, after in ((first, hung), (hung, last)):  # each restart began at a saved checkpoint
        assert after["start_step"] % EVERY == 0 and after["start_step"] <= before["end_step"]
    assert_bitwise_equal(run_dir, uninterrupted)


def test_sigterm_preemption_then_resume_replays_bitwise(uninterrupted, tmp_path):
    run_dir, log = tmp_path / "preempt", tmp_path / "preempt.log"
    proc = start(launch_argv(run_dir, "--step-delay", "0.1"), log)
    wait_for_step(run_dir, proc, log, 12, attempt=0)
    proc.send_signal(signal.SIGTERM)  # to the supervisor, as a preemption notice would be
    assert finish(proc, log) == 143, log.read_text()
    rep = report(run_dir)
    assert rep["status"] == "preempted" and rep["restarts"] == 0
    stopped_at = rep["attempts"][0]["end_step"]
    assert 12 <= stopped_at < STEPS
    assert rep["final_step"] == stopped_at  # checkpointed where it stopped, not at the last multiple of K
    assert not (run_dir / "final_params.npz").exists()

    refused = run(launch_argv(run_dir))
    assert refused.returncode == 2 and "--resume" in refused.stderr

    resumed = run(launch_argv(run_dir, "--resume"))
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    rep = report(run_dir)
    assert (rep["status"], rep["invocation"], rep["resumed_from_step"]) == ("completed", 1, stopped_at)
    assert rep["attempts"][0]["start_step"] == stopped_at
    assert_bitwise_equal(run_dir, uninterrupted)


def test_timeout_is_enforced(tmp_path):
    run_dir = tmp_path / "timeout"
    started = time.monotonic()
    done = run(launch_argv(run_dir, "--steps", "1000000", "--step-delay", "0.05", "--timeout", "8",
                           "--grace", "30"))
    elapsed = time.monotonic() - started
    assert done.returncode == 124, done.stdout + done.stderr
    assert elapsed < 8 + 30 + 20
    rep = report(run_dir)
    assert rep["status"] == "timeout" and rep["timeout_s"] == 8
    [attempt] = rep["attempts"]
    assert attempt["outcome"] == "timeout"
    with pytest.raises(ProcessLookupError):
        os.kill(attempt["pid"], 0)  # the worker is gone, not left running


@pytest.mark.skipif(Path("/dev/nvidia0").exists(), reason="this machine has a GPU")
def test_absent_platform_fails_loudly_without_cpu_fallback(tmp_path):
    run_dir = tmp_path / "gpu"
    done = run(launch_argv(run_dir, "--platform", "gpu"))
    assert done.returncode == 3, done.stdout + done.stderr
    assert "not available" in done.stderr and "never replaced by CPU" in done.stderr
    rep = report(run_dir)
    assert (rep["status"], rep["restarts"], rep["observed_platform"]) == ("platform_unavailable", 0, None)
    [attempt] = rep["attempts"]
    receipt = json.loads((run_dir / attempt["receipt"]).read_text())
    assert receipt["requested_platform"] == "gpu" and receipt["observed_platform"] is None
    assert receipt["error"] and not receipt["platform_ok"]
    assert rep["checkpoint_steps"] == [] and not (run_dir / "final_params.npz").exists()

    done = run([sys.executable, str(PRECISION), "--platform", "gpu", "--run-dir", str(tmp_path / "p-gpu"),
                "--steps", "2", "--size", "16"])
    assert done.returncode == 3 and "PLATFORM UNAVAILABLE" in done.stderr
    assert not (tmp_path / "p-gpu" / "precision_report.json").exists()


def test_precision_table_structure_order_and_trace(tmp_path):
    run_dir = tmp_path / "precision"
    done = run([sys.executable, str(PRECISION), "--platform", "cpu", "--run-dir", str(run_dir),
                "--steps", "5", "--size", "128", "--trace"])
    assert done.returncode == 0, done.stdout + done.stderr
    rep = json.loads((run_dir / "precision_report.json").read_text())
    assert rep["schema"] == "tpu-gcp/precision-report/v1"
    assert rep["requested_platform"] == rep["observed_platform"] == rep["receipt"]["observed_platform"] == "cpu"
    assert rep["columns"] == PRECISION_COLUMNS
    rows = {r["name"]: r for r in rep["rows"]}
    assert list(rows) == ["f32_default", "f32_high", "f32_highest", "bf16", "bf16_out", "int8_per_channel",
                          "train_step_f32", "train_step_bf16", "train_5_steps_f32", "train_5_steps_bf16"]
    for row in rows.values():
        assert set(PRECISION_COLUMNS) <= set(row)
        assert row["kind"] in {"matmul", "train_step", "train_run"}
        assert 0 <= row["rel_error"] < 1 and row["max_abs_error"] >= row["mean_abs_error"] >= 0

    assert rows["bf16"]["rel_error"] > rows["f32_highest"]["rel_error"]
    assert rows["f32_highest"]["rel_error"] < 1e-5
    assert rows["int8_per_channel"]["bound_ratio"] <= 1.0  # the stated elementwise bound holds
    assert rows["int8_per_channel"]["rel_error"] < 0.05
    assert rows["train_step_bf16"]["rel_error"] > rows["train_step_f32"]["rel_error"]
    assert all(rep["checks"].values())

    with open(run_dir / "precision_table.csv", newline="") as f:
        table = list(csv.DictReader(f))
    assert [r["name"] for r in table] == list(rows) and list(table[0]) == PRECISION_COLUMNS
    assert (run_dir / "precision_errors.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

    traces = sorted(run_dir.glob("plugins/profile/*/*.xplane.pb"))
    assert traces and traces[0].stat().st_size > 0
    assert rep["trace"]["xplane"] == [str(t.relative_to(run_dir)) for t in traces]
    assert "xprof --logdir" in done.stdout
