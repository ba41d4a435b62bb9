"""Training throughput and memory of the capstone Transformer: pallas-02's attention kernel against XLA's.

Takes the solved pallas-02 lesson's code from source/pallas-02/pallas-02.ipynb (its `flash_attention`
kernel, `kernel_attention` (the kernel forward, a jax.numpy backward), `pallas_heads`, and capstone-01's
model with its `Config.attention` switch) and trains capstone-01's model size (width 64, 4 heads of 16,
2 blocks, MLP 256) with `optax.adamw` on random tokens, once with `attention="xla"` (capstone-01's
jax.numpy attention, compiled by XLA) and once with `attention="pallas"` (the kernel), at each --length.
Each row: tokens per second of the compiled training step (--rounds measurements of --steps steps after
a compiled first one, median, min and max), the temporary memory XLA reserves for the compiled step and
for the forward pass alone (`compile().memory_analysis().temp_size_in_bytes`), and the device's peak
memory after the row (`memory_stats()['peak_bytes_in_use']`, where the device reports it: TPUs and GPUs,
not the CPU; it is the peak since the process started, so rows are run shortest first and each
(attention, length) pair is measured in a fresh process with --isolate).

Needs only jax, flax, optax and numpy (no jaxcourse, no nbgrader), so it runs on a bare TPU host:
  JAX_PLATFORMS=tpu,cpu python3 benchmarks/attention_tokens.py --length 512 --length 2048 --isolate
The default model has heads of 16 dimensions, blocks (1, 128, 16) that are legal for Mosaic (the last
dimension is the array's) but fill a fraction of the TPU's 128 lanes; `--dim 256 --heads 2` gives heads of 128.
On a CPU the kernel runs in the TPU interpret mode, which is slow and says nothing about speed:
  JAX_PLATFORMS=cpu python3 benchmarks/attention_tokens.py --quick
Usage: python benchmarks/attention_tokens.py [--length T ...] [--batch 8] [--block 128] [--steps 10]
       [--rounds 3] [--isolate] [--quick]
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[1] / "source" / "pallas-02" / "pallas-02.ipynb"
CELLS = ("setup", "step-2", "step-3", "exercise-solution", "model", "transfer-solution")
KEEP_NAMES = {"INTERPRET", "HIGHEST", "MASK_VALUE", "INIT", "tx"}  # module-level assignments worth keeping


def ratio(mine: float, theirs: float) -> str:
    """mine / theirs as a factor; a byte count against none reads as the bytes themselves."""
    return f"{mine / theirs:.2f}x" if theirs else f"{mine / 2**20:.1f} MiB against none"


def lesson_namespace() -> dict:
    """The lesson's imports, functions, classes and constants from CELLS (no cell's demonstration code)."""
    cells = {cell["id"]: "".join(cell["source"]) for cell in json.loads(NOTEBOOK.read_text())["cells"]}
    namespace: dict = {}
    for cell_id in CELLS:
        tree = ast.parse(cells[cell_id])
        kept = []
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef)):
                kept.append(node)
            elif isinstance(node, ast.Assign) and any(getattr(t, "id", None) in KEEP_NAMES for t in node.targets):
                kept.append(node)
            elif (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                  and getattr(node.value.func, "attr", None) == "defvjp"):           # kernel_attention.defvjp(...)
                kept.append(node)
        exec(compile(ast.Module(body=kept, type_ignores=[]), f"{NOTEBOOK}:{cell_id}", "exec"), namespace)
    return namespace


def measure(ns: dict, attention: str, length: int, args) -> dict:
    """One row: the compiled step's tokens per second and memory for `attention` at `length` tokens."""
    jax, jnp, nnx = ns["jax"], ns["jnp"], ns["nnx"]
    config = ns["Config"](vocab_size=256, context=length, dim=args.dim, heads=args.heads, layers=2,
                          hidden=4 * args.dim, attention=attention, block=min(args.block, length))
    model = ns["Transformer"](config, rngs=nnx.Rngs(0))
    optimizer = nnx.Optimizer(model, ns["tx"], wrt=nnx.Param)
    graphdef, state = nnx.split((model, optimizer))

    def pure_step(state, inputs, targets):
        model, optimizer = nnx.merge(graphdef, state)
        loss, _ = ns["train_step"](model, optimizer, inputs, targets)
        return loss, nnx.state((model, optimizer))

    def pure_logits(state, inputs):
        model, _ = nnx.merge(graphdef, state)
        return model(inputs)

    tokens = jax.random.randint(jax.random.key(1), (args.batch, length + 1), 0, 256)
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    started = time.perf_counter()
    step = jax.jit(pure_step, donate_argnums=0).lower(state, inputs, targets).compile()
    compile_s = time.perf_counter() - started
    forward = jax.jit(pure_logits).lower(state, inputs).compile()
    loss, state = step(state, inputs, targets)                       # the first step, not counted
    first_loss = float(loss)
    rates = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        for _ in range(args.steps):
            loss, state = step(state, inputs, targets)
        loss.block_until_ready()
        rates.append(args.batch * length * args.steps / (time.perf_counter() - started))
    stats = jax.devices()[0].memory_stats() or {}
    return {"attention": attention, "length": length, "tokens_per_s": statistics.median(rates),
            "min": min(rates), "max": max(rates), "compile_s": compile_s, "first_loss": first_loss,
            "step_temp": step.memory_analysis().temp_size_in_bytes,
            "forward_temp": forward.memory_analysis().temp_size_in_bytes,
            "peak": stats.get("peak_bytes_in_use")}


def print_table(rows: list[dict]) -> None:
    mib = lambda b: "-" if b is None else f"{b / 2**20:,.1f}"
    print(f"{'attention':9s} {'T':>6s} {'tokens/s (median)':>18s} {'min':>12s} {'max':>12s} {'compile s':>9s} "
          f"{'first loss':>10s} {'step temp MiB':>13s} {'fwd temp MiB':>12s} {'peak MiB':>9s}")
    for r in rows:
        print(f"{r['attention']:9s} {r['length']:6d} {r['tokens_per_s']:18,.0f} {r['min']:12,.0f} {r['max']:12,.0f} "
              f"{r['compile_s']:9.1f} {r['first_loss']:10.4f} {mib(r['step_temp']):>13s} {mib(r['forward_temp']):>12s} "
              f"{mib(r['peak']):>9s}")
    by = {(r["attention"], r["length"]): r for r in rows}
    for length in sorted({r["length"] for r in rows}):
        if ("xla", length) in by and ("pallas", length) in by:
            x, p = by[("xla", length)], by[("pallas", length)]
            print(f"T = {length}: pallas / xla tokens per second {p['tokens_per_s'] / x['tokens_per_s']:.2f}x; "
                  f"step temp memory {ratio(p['step_temp'], x['step_temp'])}, "
                  f"forward temp memory {ratio(p['forward_temp'], x['forward_temp'])} of XLA's")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--length", type=int, action="append", help="sequence length (repeatable; default 512, 2048)")
    parser.add_argument("--batch", type=int, default=8, help="sequences per step")
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--block", type=int, default=128, help="block_q = block_k of the kernel")
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--attention", action="append", choices=["xla", "pallas"], help="default: both")
    parser.add_argument("--isolate", action="store_true", help="each (attention, length) in a process of its own")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # a child's output: one JSON row
    parser.add_argument("--quick", action="store_true",
                        help="tiny settings for a CPU (interpret mode): T 64 and 128, batch 2, width 32, blocks of 32")
    args = parser.parse_args()
    if args.quick:
        args.length = args.length or [64, 128]
        args.batch, args.dim, args.heads, args.block, args.steps, args.rounds = 2, 32, 2, 32, 2, 1
    lengths = sorted(args.length or [512, 2048])
    attentions = args.attention or ["xla", "pallas"]
    rows = []
    if args.isolate and not args.json:
        for length in lengths:
            for attention in attentions:
                child = [sys.executable, __file__, "--json", "--length", str(length), "--attention", attention,
                         "--batch", str(args.batch), "--dim", str(args.dim), "--heads", str(args.heads),
                         "--block", str(args.block), "--steps", str(args.steps), "--rounds", str(args.rounds)]
                done = subprocess.run(child, capture_output=True, text=True, env=os.environ.copy())
                if done.returncode:
                    print(f"{attention} at T = {length} failed:\n{done.stderr[-2000:]}")
                    continue
                rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
                print(f"measured {attention} at T = {length}", flush=True)
    else:
        ns = lesson_namespace()
        if not args.json:
            jax = ns["jax"]
            print(f"jax {jax.__version__}, flax {ns['flax'].__version__}; device {jax.devices()[0].device_kind}; "
                  f"kernels: {'compiled by Mosaic' if ns['INTERPRET'] is False else 'TPU interpret mode'}")
        for length in lengths:
            for attention in attentions:
                rows.append(measure(ns, attention, length, args))
                if args.json:
                    print(json.dumps(rows[-1]))
                    return
    print(f"batch {args.batch}, width {args.dim}, {args.heads} heads, 2 blocks, kernel blocks {args.block}, "
          f"{args.rounds} x {args.steps} steps")
    print_table(rows)


if __name__ == "__main__":
    main()
