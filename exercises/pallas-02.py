# Lesson pallas-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/pallas-02.py (or tpu, or gpu); it ends PASS: pallas-02

# The online softmax on a row split in two blocks, and a causal running-mean kernel that reads only
# the key blocks on or below the diagonal: the TPU interpret mode on a CPU, a native kernel on a TPU.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

INTERPRET = False if jax.default_backend() == "tpu" else pltpu.InterpretParams()
print("backend:", jax.default_backend(), "| kernels:", "compiled by Mosaic" if INTERPRET is False else "TPU interpret mode")

# 1. The running maximum m, sum l and weighted sum a over two blocks equal one softmax over the row.
row, vals = jnp.array([1.0, 3.0, 2.0, 5.0]), jnp.array([10.0, 20.0, 30.0, 40.0])
m, l, a = -jnp.inf, 0.0, 0.0
for half in (slice(0, 2), slice(2, 4)):
    m2 = jnp.maximum(m, row[half].max())
    rescale = jnp.exp(m - m2)
    l = rescale * l + jnp.exp(row[half] - m2).sum()
    a = rescale * a + (jnp.exp(row[half] - m2) * vals[half]).sum()
    m = m2
print(f"online: m = {float(m):g}, l = {float(l):.6f}, a / l = {float(a / l):.6f}; "
      f"one pass: {float(jax.nn.softmax(row) @ vals):.6f}")


# 2. o_t = mean(v_0 .. v_t): a grid over (sequence, query block), a loop over the key blocks it needs.
def running_mean(v, bq, bk):
    n, T, d = v.shape

    def kernel(v_ref, o_ref):
        i = pl.program_id(1)
        r = i * bq + jax.lax.broadcasted_iota(jnp.int32, (bq, bk), 0)

        def add_block(j, total):
            c = j * bk + jax.lax.broadcasted_iota(jnp.int32, (bq, bk), 1)
            return total + jnp.dot(jnp.where(c <= r, 1.0, 0.0), v_ref[0, pl.ds(j * bk, bk), :],
                                   precision=jax.lax.Precision.HIGHEST, preferred_element_type=jnp.float32)

        total = jax.lax.fori_loop(0, ((i + 1) * bq - 1) // bk + 1, add_block, jnp.zeros((bq, d), jnp.float32))
        t = i * bq + jax.lax.broadcasted_iota(jnp.int32, (bq, 1), 0)
        o_ref[0] = total / (t + 1).astype(jnp.float32)

    return pl.pallas_call(kernel, out_shape=jax.ShapeDtypeStruct(v.shape, jnp.float32), grid=(n, T // bq),
                          in_specs=[pl.BlockSpec((1, T, d), lambda s, i: (s, 0, 0))],
                          out_specs=pl.BlockSpec((1, bq, d), lambda s, i: (s, i, 0)), interpret=INTERPRET)(v)


v = jnp.asarray(np.random.default_rng(0).standard_normal((4, 64, 16)), jnp.float32)
out = jax.jit(running_mean, static_argnums=(1, 2))(v, 16, 16)
difference = float(jnp.max(jnp.abs(out - jnp.cumsum(v, axis=1) / jnp.arange(1, 65)[None, :, None])))
print("running mean, largest difference from cumsum / (t + 1):", f"{difference:.1e}")

poison = np.asarray(v).copy()
for j in range(4):
    poison[j, 16 * j:16 * (j + 1)] = np.nan          # copy j: the values of key block j are NaN
reached = np.isnan(np.asarray(jax.jit(running_mean, static_argnums=(1, 2))(jnp.asarray(poison), 16, 16)))
pairs = reached.reshape(4, 4, 16, 16).any(axis=(2, 3))
print("key block j reached query blocks (j = 0..3):", [np.flatnonzero(p).tolist() for p in pairs])
print("pairs computed:", int(pairs.sum()), "of 16")

assert abs(float(a / l) - float(jax.nn.softmax(row) @ vals)) < 1e-4
assert difference < 1e-5 and int(pairs.sum()) == 10 and not pairs[3, :3].any()
print("PASS: pallas-02")
