# Lesson welcome-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/welcome-02.py (or tpu, or gpu); it ends PASS: welcome-02

# Meet your arrays: six values as a (2, 3) table, its shape, dtype and device, and its row sums.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # before import jax: the import reads it

import jax
import jax.numpy as jnp
import numpy as np

flat = jnp.arange(6, dtype=jnp.float32)   # 0, 1, ..., 5
x = flat.reshape(2, 3)                    # axis 0: 2 observations, axis 1: 3 features
row_sums = x.sum(axis=1)                  # the named axis disappears: one total per observation

print("x =\n", x)
print("Shape:  ", x.shape)
print("Dtype:  ", x.dtype)
print("Devices:", x.devices())
print("Row sums:", row_sums, "shape", row_sums.shape)
host = np.asarray(x)                      # a read-only host copy, for inspection
print("Host copy:", type(host).__name__, host.dtype, host.shape, "| writeable:", host.flags.writeable)

assert flat.shape == (6,) and x.shape == (2, 3) and x.size == flat.size
assert x.dtype == jnp.float32
assert x.devices() == {jax.devices()[0]}, "a new array lives on the default backend's first device"
assert row_sums.shape == (2,)
# Small whole numbers are exact in float32, so the sums compare exactly on every backend.
assert np.array_equal(np.asarray(row_sums), [3.0, 12.0]), f"expected [3, 12], got {row_sums}"
np.testing.assert_array_equal(host, np.arange(6).reshape(2, 3))
print("PASS: welcome-02")
