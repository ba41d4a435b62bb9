# Lesson dist-04: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/dist-04.py (or tpu, or gpu); it ends PASS: dist-04

# Sharded weights on a 2 x 4 mesh: the same MLP with its parameters replicated, FSDP-sharded
# (stored in eighths, all-gathered before use) and tensor-parallel (columns of w1, rows of w2,
# one psum). Check: the single-device numbers, the bytes per device, and the collectives.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

if jax.device_count() < 8:
    raise RuntimeError(f"this example needs 8 devices, found {jax.device_count()}: run it in a fresh "
                       "Python process with JAX_NUM_CPU_DEVICES=8 (the CPU backend)")

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
rng = np.random.default_rng(0)
params0 = {"w1": (rng.normal(size=(8, 32)) / np.sqrt(8)).astype(np.float32),
           "b1": np.full((32,), 0.1, np.float32),
           "w2": (rng.normal(size=(32, 8)) / np.sqrt(32)).astype(np.float32),
           "b2": np.full((8,), 0.5, np.float32)}
x_host = rng.normal(size=(8, 8)).astype(np.float32)


def mlp(params, x):
    return jax.nn.relu(x @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]


def place(params, specs):
    return {name: jax.device_put(value, NamedSharding(mesh, specs[name])) for name, value in params.items()}


def bytes_on(tree, device):
    return sum(s.data.nbytes for leaf in jax.tree.leaves(tree) for s in leaf.addressable_shards if s.device == device)


def collectives(hlo_text):
    ops = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute")
    return {op: hlo_text.count(f" {op}(") for op in ops if hlo_text.count(f" {op}(")}


y_ref = np.asarray(mlp(params0, x_host))
tp_specs = {"w1": P(None, "model"), "b1": P("model"), "w2": P("model", None), "b2": P()}
layouts = {"replicated": jax.device_put(params0, NamedSharding(mesh, P())),
           "FSDP": place(params0, {name: P(("data", "model")) for name in params0}),
           "TP": place(params0, tp_specs)}
stored = {name: [bytes_on(tree, d) for d in jax.devices()] for name, tree in layouts.items()}
print("global bytes:", sum(v.nbytes for v in params0.values()), "| bytes on devices 0..7:", stored)
assert {name: set(v) for name, v in stored.items()} == {"replicated": {2208}, "FSDP": {276}, "TP": {576}}


def fsdp_forward(params, x):          # FSDP: gather every weight just before use, then compute as usual
    return mlp(jax.tree.map(lambda w: jax.reshard(w, NamedSharding(mesh, P())), params), x)


def tp_local(p, x):                   # TP: the program of one device
    h = jax.nn.relu(x @ p["w1"] + p["b1"])                 # its hidden units (columns of w1)
    return jax.lax.psum(h @ p["w2"], "model") + p["b2"]    # rows of w2, sum the partials, then b2


tp_forward = jax.jit(jax.shard_map(tp_local, mesh=mesh, in_specs=(tp_specs, P("data", None)), out_specs=P("data", None)))
runs = {"FSDP": (jax.jit(fsdp_forward), layouts["FSDP"], P(("data", "model"))),     # x: 1 row per device
        "TP": (tp_forward, layouts["TP"], P("data", None))}                         # x: 4 rows per device
for name, (forward, params, x_spec) in runs.items():
    x = jax.device_put(x_host, NamedSharding(mesh, x_spec))
    compiled = forward.lower(params, x).compile()
    y = compiled(params, x)
    gap = float(np.abs(np.asarray(y) - y_ref).max())
    print(f"{name:4}: y {str(jax.typeof(y)):26} largest gap to one device {gap:.1e} | collectives {collectives(compiled.as_text())}")
    assert gap < 1e-5
    expected = {"all-gather": 4} if name == "FSDP" else {"all-reduce": 1}
    assert collectives(compiled.as_text()) == expected
assert "psum" in str(jax.make_jaxpr(tp_forward)(layouts["TP"], x))      # the psum we wrote, in the jaxpr
print("PASS: dist-04")
