# Lesson dist-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/dist-03.py (or tpu, or gpu); it ends PASS: dist-03

# shard_map and collectives: write the program one device runs, on its own block, and say
# explicitly when the devices talk. Checks: the block each device sees, what psum, pmean,
# all_gather, ppermute and axis_index return, and where the communication shows up.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

if jax.device_count() < 8:
    raise RuntimeError(f"this example needs 8 devices, found {jax.device_count()}: run it in a fresh "
                       "Python process with JAX_NUM_CPU_DEVICES=8 (the CPU backend)")

mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Explicit,))
x_host = (np.arange(64).reshape(16, 4) % 7).astype(np.float32)
x = jax.device_put(x_host, NamedSharding(mesh, P("data")))    # on an Explicit mesh, place before shard_map
ring = [(d, (d + 1) % 8) for d in range(8)]


def collectives(block):
    assert block.shape == (2, 4), "each device sees its own 2 rows"
    total = jax.lax.psum(jnp.sum(block, axis=0), "data")
    mean = jax.lax.pmean(jnp.mean(block, axis=0), "data")
    everything = jax.lax.all_gather(block, "data", tiled=True)
    shifted = jax.lax.ppermute(block, "data", perm=ring)
    partial = jnp.sum(block, axis=0, keepdims=True)
    return total, mean, everything, shifted, partial, jax.lax.axis_index("data")[None]


run = jax.jit(jax.shard_map(collectives, mesh=mesh, in_specs=P("data"),
                            out_specs=(P(), P(), P("data"), P("data"), P("data"), P("data"))))
total, mean, gathered, shifted, partial, ids = run(x)
print("x:", jax.typeof(x), "| block per device:", x.sharding.shard_shape(x.shape))
print("partial sums per device:", np.asarray(partial).tolist())
print("psum:", np.asarray(total), "| pmean:", np.asarray(mean))
print("all_gather:", gathered.shape, "| ppermute, device 0 holds:", np.asarray(shifted)[:2].tolist())
print("axis_index:", np.asarray(ids))
assert np.array_equal(np.asarray(total), x_host.sum(axis=0)) and total.sharding.is_fully_replicated
assert np.allclose(np.asarray(mean), x_host.mean(axis=0))
assert all(np.array_equal(copy, x_host) for copy in np.asarray(gathered).reshape(8, 16, 4))
assert np.array_equal(np.asarray(shifted), np.roll(x_host, 2, axis=0))
assert np.array_equal(np.asarray(partial).sum(axis=0), x_host.sum(axis=0))
assert np.array_equal(np.asarray(ids), np.arange(8))

# The communication is in the program you wrote: in the jaxpr, and as ops in the compiled program.
jaxpr_text = str(jax.make_jaxpr(run)(x))
compiled_text = run.lower(x).compile().as_text()
print("in the jaxpr:", [p for p in ("psum", "all_gather", "ppermute") if p in jaxpr_text],
      "| compiled:", {op: compiled_text.count(f" {op}(") for op in ("all-reduce", "all-gather", "collective-permute")})
assert all(p in jaxpr_text for p in ("psum", "all_gather", "ppermute"))
assert all(f" {op}(" in compiled_text for op in ("all-reduce", "all-gather", "collective-permute"))
print("PASS: dist-03")
