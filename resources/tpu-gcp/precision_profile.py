#!/usr/bin/env python3
"""Precision and profiling lab: how far from float64 are f32, bf16 and int8 on this device?

    python precision_profile.py --platform tpu --run-dir runs/precision-tpu --steps 20 --trace
    python precision_profile.py --platform cpu --run-dir runs/precision-cpu --steps 20 --trace

On fixed inputs (NumPy, seeded) and against a float64 NumPy reference computed from the very
same inputs, it measures the error of

* a float32 matmul at DEFAULT, HIGH and HIGHEST precision (on TPU, DEFAULT uses bfloat16
  passes of the MXU; on CPU all three are full float32);
* a bfloat16 matmul (inputs rounded to bf16, float32 accumulation) and one with a bf16 result;
* an int8 matmul with symmetric per-channel scales (rows of A, columns of B), int32
  accumulation, dequantised in float32, checked against a stated elementwise error bound;
* one training step and --steps training steps of a small MLP regression with float32 and with
  bfloat16 compute (float32 master weights), against the same training done in float64 NumPy.

It writes into --run-dir: precision_report.json (the table, the device receipt, the
configuration), precision_table.csv (the same rows), precision_errors.png, and with --trace an
XProf trace under plugins/profile/<run>/*.xplane.pb, captured with jax.profiler around
already-compiled work, each call finished with block_until_ready inside the trace.

Exit codes: 0 done; 2 usage error; 3 the requested platform is not available (never replaced
by CPU); 4 a measured error broke its stated bound or ordering (the report is still written).

Standalone: standard library, jax, numpy and matplotlib only.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import socket
import sys
import time
from pathlib import Path

from labkit import PLATFORMS, now_iso, package_versions, write_json

SCHEMA = "tpu-gcp/precision-report/v1"
EXIT_OK, EXIT_USAGE, EXIT_PLATFORM, EXIT_BOUND = 0, 2, 3, 4
COLUMNS = ("name", "kind", "input_dtype", "compute", "output_dtype", "precision", "max_abs_error",
           "mean_abs_error", "rel_error", "bound_ratio", "median_time_ms", "note")








def arguments(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--platform", choices=PLATFORMS, required=True,
                   help="backend to measure; any other backend is an error")
    p.add_argument("--run-dir", required=True, type=Path)
    p.add_argument("--steps", type=int, default=20,
                   help="training steps compared with float64, and timed repetitions of each matmul (default 20)")
    p.add_argument("--trace", action="store_true", help="capture an XProf trace into --run-dir")
    p.add_argument("--size", type=int, default=512, help="matmul size: (size x size) @ (size x size) (default 512)")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.steps < 1 or args.size < 8:
        p.error("--steps must be >= 1 and --size >= 8")
    args.run_dir = args.run_dir.resolve()
    return args


# ----------------------------------------------------------------------------------------------
# Error measures, all in float64 on the host.
# ----------------------------------------------------------------------------------------------

def errors(value, reference) -> dict:
    import numpy as np
    value = np.asarray(value, dtype=np.float64)
    diff = np.abs(value - reference)
    return {"max_abs_error": float(diff.max()), "mean_abs_error": float(diff.mean()),
            "rel_error": float(np.linalg.norm(value - reference) / np.linalg.norm(reference))}


def int8_bound(a, b, scale_a, scale_b):
    """Elementwise bound on |A @ B - dequant(int8 A @ int8 B)| for round-to-nearest quantisation.

    With A = sa*qa + Ea, |Ea_ik| <= sa_i/2 and B = qb*sb + Eb, |Eb_kj| <= sb_j/2:
        A@B - (sa*qa)@(qb*sb) = Ea@B + (sa*qa)@Eb,   and |sa_i*qa_ik| <= |A_ik| + sa_i/2, so
        |err_ij| <= sa_i/2 * sum_k|B_kj| + sb_j/2 * sum_k|A_ik| + K*sa_i*sb_j/4
    plus the float32 dequantisation (two roundings of the exact int32 sum) and the float32
    rounding of the scales themselves: 4 * 2**-24 * sum_k|A_ik||B_kj| covers both.
    """
    import numpy as np
    a, b = np.abs(a.astype(np.float64)), np.abs(b.astype(np.float64))
    sa, sb = scale_a.astype(np.float64).reshape(-1, 1), scale_b.astype(np.float64).reshape(1, -1)
    k = a.shape[1]
    return (sa / 2 * b.sum(axis=0, keepdims=True) + sb / 2 * a.sum(axis=1, keepdims=True)
            + k * sa * sb / 4 + 4 * 2.0 ** -24 * (a @ b))


# ----------------------------------------------------------------------------------------------
# A float64 NumPy reference for the MLP: forward and backward written out by hand.
# ----------------------------------------------------------------------------------------------

def np_loss_and_grads(p, x, y):
    import numpy as np
    z = x @ p["w1"] + p["b1"]
    h = np.tanh(z)
    out = h @ p["w2"] + p["b2"]
    r = out - y
    loss = float(np.mean(r ** 2))
    d_out = 2 * r / r.size
    g = {"w2": h.T @ d_out, "b2": d_out.sum(axis=0)}
    dz = (d_out @ p["w2"].T) * (1 - h ** 2)
    g.update(w1=x.T @ dz, b1=dz.sum(axis=0))
    return loss, g


def np_train(p, x, y, lr, steps):
    import numpy as np
    p = {k: v.astype(np.float64) for k, v in p.items()}
    losses = []
    for _ in range(steps):
        loss, g = np_loss_and_grads(p, x, y)
        losses.append(loss)
        p = {k: p[k] - lr * g[k] for k in p}
    return p, losses


def main(argv=None) -> int:
    args = arguments(argv)
    run_dir = args.run_dir
    run_dir.mkdir(parents=True, exist_ok=True)
    found_env = os.environ.get("JAX_PLATFORMS")
    os.environ["JAX_PLATFORMS"] = args.platform  # before JAX starts: the requested backend or an error

    import numpy as np
    import jax
    import jax.numpy as jnp
    from jax import lax

    receipt = {"requested_platform": args.platform, "jax_platforms_env_found": found_env,
               "jax_platforms_env_used": args.platform, "observed_platform": None, "devices": [],
               "hostname": socket.gethostname(), "pid": os.getpid(), "started_at": now_iso(),
               "versions": package_versions(), "error": None}
    try:
        devices = jax.devices()
        receipt["observed_platform"] = jax.default_backend()
    except RuntimeError as exc:
        devices = []
        receipt["error"] = f"{type(exc).__name__}: {exc}"
    receipt["devices"] = [{"id": d.id, "platform": d.platform, "device_kind": d.device_kind} for d in devices]
    if receipt["observed_platform"] != args.platform or not devices:
        receipt["error"] = receipt["error"] or f"observed {receipt['observed_platform']!r}"
        write_json(run_dir / "device_receipt.json", receipt)
        print(f"PLATFORM UNAVAILABLE: requested {args.platform!r}: {receipt['error']}; "
              "refusing to fall back to another backend", file=sys.stderr)
        return EXIT_PLATFORM
    device = devices[0]
    print(f"device: requested {args.platform}, observed {receipt['observed_platform']}, {device.device_kind}")

    # ------------------------------------------------------------------ fixed inputs
    rng = np.random.default_rng(args.seed)
    n = args.size
    a_host = rng.standard_normal((n, n)).astype(np.float32)
    b_host = rng.standard_normal((n, n)).astype(np.float32)
    reference = a_host.astype(np.float64) @ b_host.astype(np.float64)  # exact-ish: the f32 inputs, in f64
    a, b = jax.device_put(a_host, device), jax.device_put(b_host, device)
    P = lax.Precision

    def quantise(x, axis):
        """Symmetric int8 with one scale per channel (max |x| along `axis` maps to 127)."""
        scale = jnp.max(jnp.abs(x), axis=axis, keepdims=True) / 127.0
        scale = jnp.where(scale == 0, 1.0, scale)
        return jnp.clip(jnp.round(x / scale), -127, 127).astype(jnp.int8), scale

    def int8_matmul(x, y):
        qx, sx = quantise(x, axis=1)  # one scale per row of A
        qy, sy = quantise(y, axis=0)  # one scale per column of B (per output channel)
        acc = lax.dot(qx, qy, preferred_element_type=jnp.int32)  # exact integer accumulation
        return acc.astype(jnp.float32) * sx * sy, sx[:, 0], sy[0, :]

    matmuls = {
        # name: (function, input dtype, compute, output dtype, precision, note)
        "f32_default": (lambda x, y: jnp.dot(x, y, precision=P.DEFAULT), "float32", "float32 dot", "float32",
                        "DEFAULT", "on TPU DEFAULT uses bf16 MXU passes; on CPU it is full f32"),
        "f32_high": (lambda x, y: jnp.dot(x, y, precision=P.HIGH), "float32", "float32 dot", "float32",
                     "HIGH", "on TPU three bf16 passes (bf16_3x)"),
        "f32_highest": (lambda x, y: jnp.dot(x, y, precision=P.HIGHEST), "float32", "float32 dot", "float32",
                        "HIGHEST", "full float32 everywhere"),
        "bf16": (lambda x, y: jnp.dot(x.astype(jnp.bfloat16), y.astype(jnp.bfloat16),
                                      preferred_element_type=jnp.float32),
                 "bfloat16", "bf16 inputs, f32 accumulation", "float32", "DEFAULT",
                 "includes rounding the inputs to bf16 (8 significant bits)"),
        "bf16_out": (lambda x, y: jnp.dot(x.astype(jnp.bfloat16), y.astype(jnp.bfloat16)),
                     "bfloat16", "bf16 inputs", "bfloat16", "DEFAULT", "result rounded to bf16 too"),
        "int8_per_channel": (lambda x, y: int8_matmul(x, y)[0], "int8", "int8 x int8 -> int32, f32 dequant",
                             "float32", "n/a", "symmetric per-channel scales; bound_ratio <= 1 is required"),
    }
    compiled = {name: jax.jit(spec[0]) for name, spec in matmuls.items()}

    def median_ms(fn, *xs, reps):
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            jax.block_until_ready(fn(*xs))
            times.append((time.perf_counter() - t) * 1e3)
        return float(np.median(times))

    rows = []
    for name, (fn, in_dt, compute, out_dt, precision, note) in matmuls.items():
        value = np.asarray(compiled[name](a, b).astype(jnp.float32))
        row = {"name": name, "kind": "matmul", "input_dtype": in_dt, "compute": compute, "output_dtype": out_dt,
               "precision": precision, **errors(value, reference), "bound_ratio": None,
               "median_time_ms": median_ms(compiled[name], a, b, reps=args.steps), "note": note}
        if name == "int8_per_channel":
            _, sa, sb = jax.jit(int8_matmul)(a, b)
            bound = int8_bound(a_host, b_host, np.asarray(sa), np.asarray(sb))
            row["bound_ratio"] = float(np.max(np.abs(value - reference) / bound))
            row["bound_max"] = float(bound.max())
        rows.append(row)

    # ------------------------------------------------------------------ training: f64 vs f32 vs bf16
    d_in, hidden, batch, lr = 16, 64, 256, 0.1
    x_host = rng.standard_normal((batch, d_in)).astype(np.float32)
    y_host = np.sin(x_host @ rng.standard_normal((d_in, 1))).astype(np.float32)
    p0 = {"w1": (rng.standard_normal((d_in, hidden)) / math.sqrt(d_in)).astype(np.float32),
          "b1": np.zeros(hidden, np.float32),
          "w2": (rng.standard_normal((hidden, 1)) / math.sqrt(hidden)).astype(np.float32),
          "b2": np.zeros(1, np.float32)}
    x64, y64 = x_host.astype(np.float64), y_host.astype(np.float64)
    ref_1, _ = np_train(p0, x64, y64, lr, 1)
    ref_n, ref_losses = np_train(p0, x64, y64, lr, args.steps)

    def make_step(dtype):
        def loss_fn(p, x, y):
            q = {k: v.astype(dtype) for k, v in p.items()}  # compute copy; master weights stay f32
            h = jnp.tanh(x.astype(dtype) @ q["w1"] + q["b1"])
            out = (h @ q["w2"] + q["b2"]).astype(jnp.float32)
            return jnp.mean((out - y) ** 2)

        @jax.jit
        def step(p, x, y):
            with jax.default_matmul_precision("highest" if dtype == jnp.float32 else "default"):
                loss, g = jax.value_and_grad(loss_fn)(p, x, y)
            return {k: p[k] - lr * g[k].astype(jnp.float32) for k in p}, loss
        return step

    x_dev, y_dev = jax.device_put(x_host, device), jax.device_put(y_host, device)
    train_steps = {"f32": make_step(jnp.float32), "bf16": make_step(jnp.bfloat16)}
    curves = {"float64 (NumPy)": ref_losses}

    def flat(p):
        return np.concatenate([np.asarray(p[k], np.float64).ravel() for k in sorted(p)])

    p0_flat = flat(p0)
    run_rows = []
    for label, step in train_steps.items():
        p = jax.device_put(p0, device)
        losses = []
        for i in range(args.steps):
            p, loss = step(p, x_dev, y_dev)
            losses.append(float(loss))
            if i == 0:
                update = flat(p) - p0_flat
                rows.append({"name": f"train_step_{label}", "kind": "train_step", "input_dtype": "float32",
                             "compute": f"{label} forward and backward", "output_dtype": "float32",
                             "precision": "HIGHEST" if label == "f32" else "DEFAULT",
                             **errors(update, flat(ref_1) - p0_flat), "bound_ratio": None,
                             "median_time_ms": median_ms(step, p, x_dev, y_dev, reps=args.steps),
                             "note": "error of one SGD update (new params - old) against the float64 update"})
        run_rows.append({"name": f"train_{args.steps}_steps_{label}", "kind": "train_run", "input_dtype": "float32",
                     "compute": f"{label} forward and backward", "output_dtype": "float32",
                     "precision": "HIGHEST" if label == "f32" else "DEFAULT",
                     **errors(flat(p) - p0_flat, flat(ref_n) - p0_flat), "bound_ratio": None,
                     "median_time_ms": None,
                     "note": f"parameter change after {args.steps} SGD steps against float64; "
                             f"final loss {losses[-1]:.6g} vs {ref_losses[-1]:.6g}",
                     "final_loss": losses[-1], "reference_final_loss": ref_losses[-1]})
        curves[f"{label} (JAX)"] = losses
    rows.extend(run_rows)

    # ------------------------------------------------------------------ the trace
    trace = None
    if args.trace:
        before = set(run_dir.glob("plugins/profile/*/*.xplane.pb"))
        with jax.profiler.trace(str(run_dir)):
            for name, fn in compiled.items():
                with jax.profiler.TraceAnnotation(f"matmul/{name}"):
                    for _ in range(3):
                        jax.block_until_ready(fn(a, b))  # inside the trace: the device work is in it
            for label, step in train_steps.items():
                p = jax.device_put(p0, device)
                for i in range(min(args.steps, 5)):
                    with jax.profiler.StepTraceAnnotation(f"train_{label}", step_num=i):
                        p, loss = step(p, x_dev, y_dev)
                        jax.block_until_ready(loss)
        new = sorted(set(run_dir.glob("plugins/profile/*/*.xplane.pb")) - before)
        trace = {"logdir": str(run_dir), "xplane": [str(f.relative_to(run_dir)) for f in new]}
        print(f"XProf trace: {', '.join(str(f) for f in new) or 'NOT WRITTEN'}")
        print(f"  open with: pip install xprof && xprof --logdir {run_dir} --port 8791   "
              "(then http://localhost:8791)")
        print(f"  or: pip install tensorboard tensorboard-plugin-profile && tensorboard --logdir {run_dir}"
              "   (Profile tab)")

    # ------------------------------------------------------------------ checks, table, plot
    by_name = {r["name"]: r for r in rows}
    checks = {
        "bf16_error_above_f32_highest": by_name["bf16"]["rel_error"] > by_name["f32_highest"]["rel_error"],
        "int8_within_bound": by_name["int8_per_channel"]["bound_ratio"] <= 1.0,
        "train_bf16_error_above_f32": by_name["train_step_bf16"]["rel_error"] > by_name["train_step_f32"]["rel_error"],
    }
    receipt["finished_at"] = now_iso()
    report = {"schema": SCHEMA, "requested_platform": args.platform,
              "observed_platform": receipt["observed_platform"], "receipt": receipt,
              "config": {"size": n, "steps": args.steps, "seed": args.seed, "train": {
                  "d_in": d_in, "hidden": hidden, "batch": batch, "learning_rate": lr, "optimizer": "sgd"}},
              "reference": "float64 NumPy on the same (float32) inputs",
              "columns": list(COLUMNS), "rows": rows, "checks": checks, "loss_curves": curves,
              "trace": trace, "files": {"report": "precision_report.json", "csv": "precision_table.csv",
                                        "plot": "precision_errors.png", "receipt": "device_receipt.json"}}
    write_json(run_dir / "device_receipt.json", receipt)
    write_json(run_dir / "precision_report.json", report)
    with open(run_dir / "precision_table.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    plot(run_dir / "precision_errors.png", rows, curves, receipt)

    print(f"\n{'name':<24}{'rel_error':>12}{'max_abs':>12}{'bound_ratio':>13}{'ms':>10}")
    for r in rows:
        ratio = "" if r["bound_ratio"] is None else f"{r['bound_ratio']:.3f}"
        ms = "" if r["median_time_ms"] is None else f"{r['median_time_ms']:.2f}"
        print(f"{r['name']:<24}{r['rel_error']:>12.3e}{r['max_abs_error']:>12.3e}{ratio:>13}{ms:>10}")
    print(f"checks: {checks}")
    print(f"wrote {run_dir / 'precision_report.json'}, precision_table.csv, precision_errors.png")
    if not all(checks.values()):
        print("error: a measured error broke its stated bound or ordering", file=sys.stderr)
        return EXIT_BOUND
    return EXIT_OK


def plot(path: Path, rows, curves, receipt) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 4.8))
    names = [r["name"] for r in rows]
    values = [max(r["rel_error"], 1e-17) for r in rows]
    colors = {"matmul": "tab:blue", "train_step": "tab:orange", "train_run": "tab:green"}
    left.barh(names, values, color=[colors[r["kind"]] for r in rows])
    from matplotlib.patches import Patch
    left.legend(handles=[Patch(color=c, label=k) for k, c in colors.items()], loc="lower right", fontsize=8)
    left.set_xscale("log")
    left.invert_yaxis()
    left.set_xlabel("relative error against float64 (Frobenius norm)")
    left.set_title(f"{receipt['observed_platform']} ({receipt['devices'][0]['device_kind']}), jax {receipt['versions'].get('jax')}")
    for spine in ("top", "right"):
        left.spines[spine].set_visible(False)
    reference = curves["float64 (NumPy)"]
    for label, losses in curves.items():
        if label.startswith("float64"):
            continue
        gap = [max(abs(l - r) / abs(r), 1e-12) for l, r in zip(losses, reference)]
        right.plot(range(1, len(gap) + 1), gap, marker="o", markersize=3, label=label)
    right.set_yscale("log")
    right.set_xlabel("SGD step")
    right.set_ylabel("|loss - loss_float64| / loss_float64")
    right.set_title(f"training loss against float64 (final float64 loss {reference[-1]:.4g})")
    right.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main())
