# Lesson pallas-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/pallas-01.py (or tpu, or gpu); it ends PASS: pallas-01

# A first Pallas kernel: divide every row by its sum, block by block, over a grid whose last block
# is partial; a native kernel on a TPU, the TPU interpret mode anywhere else.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu   # on jax 0.9.2 this needs absl-py, which pip's jax does not bring

# Compiled on a TPU; anywhere else the TPU interpret mode runs the kernels on the CPU and checks their blocks.
INTERPRET = False if jax.default_backend() == "tpu" else pltpu.InterpretParams()
print("backend:", jax.default_backend(), "| kernels:", "compiled for the TPU" if INTERPRET is False else "TPU interpret mode")


def normalize_rows_kernel(x_ref, o_ref):
    x = x_ref[...]                                        # one block of rows, in fast memory
    o_ref[...] = x / jnp.sum(x, axis=1, keepdims=True)    # a reduction per row, then a broadcast


def program_ids_kernel(o_ref):
    o_ref[...] = jnp.full(o_ref.shape, pl.program_id(0), o_ref.dtype)


rows, cols, block_rows = 20, 12, 8
grid = (pl.cdiv(rows, block_rows),)                       # 3 programs: rows 0-7, 8-15, 16-19 (+ 4 padded)
row_blocks = pl.BlockSpec((block_rows, cols), lambda i: (i, 0))   # block indices, not element offsets
x = jnp.arange(240.0).reshape(rows, cols) % 7 + 1
x_out = pl.pallas_call(normalize_rows_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=grid,
                       in_specs=[row_blocks], out_specs=row_blocks, interpret=INTERPRET)(x)
ids = pl.pallas_call(program_ids_kernel, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype), grid=grid,
                     out_specs=row_blocks, interpret=INTERPRET)()
difference = float(jnp.max(jnp.abs(x_out - x / jnp.sum(x, axis=1, keepdims=True))))
print("grid:", grid, "| block:", (block_rows, cols), "| output:", x_out.shape)
print("program that wrote each row:", np.asarray(ids[:, 0]).astype(int).tolist())
print("row sums:", sorted(set(np.round(np.asarray(x_out.sum(axis=1)), 6).tolist())))
print("largest difference from jax.numpy:", difference)

assert x_out.shape == (rows, cols) and difference < 1e-6
assert np.asarray(ids[:, 0]).tolist() == [0.0] * 8 + [1.0] * 8 + [2.0] * 4
assert np.allclose(np.asarray(x_out.sum(axis=1)), 1.0, atol=1e-6)
print("PASS: pallas-01")
