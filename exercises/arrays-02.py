# Lesson arrays-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/arrays-02.py (or tpu, or gpu); it ends PASS: arrays-02

# Broadcasting contracts: name each axis, predict the result shape, and check values before a reduction hides them.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a platform chosen earlier wins

import jax.numpy as jnp

batch = jnp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=jnp.float32)  # (observations, features)
bias = jnp.array([10.0, 20.0, 30.0], dtype=jnp.float32)        # one value per feature
offsets = jnp.array([100.0, 200.0], dtype=jnp.float32)         # one value per observation
predictions = jnp.array([1.0, 3.0, 5.0], dtype=jnp.float32)    # one per example
targets = jnp.array([1.0, 3.0, 5.0], dtype=jnp.float32)        # one per example, matching

feature_biased = batch + bias               # (2, 3) + (3,)   -> (2, 3)
row_offset = batch + offsets[:, None]       # (2, 3) + (2, 1) -> (2, 3)
aligned = predictions - targets             # (3,)   - (3,)   -> (3,)    matching pairs
pairwise = predictions - targets[:, None]   # (3,)   - (3, 1) -> (3, 3)  every pair: the bug
print("batch + bias:\n", feature_biased, "| shape", feature_biased.shape, "dtype", feature_biased.dtype)
print("batch + offsets[:, None]:\n", row_offset)
print("aligned residuals:", aligned, "-> MSE", jnp.mean(aligned ** 2))
print("pairwise residuals:\n", pairwise, "-> MSE", jnp.mean(pairwise ** 2))

try:
    batch + offsets                         # (2, 3) + (2,): 3 against 2
    bare_offsets_error = None
except (ValueError, TypeError) as err:
    bare_offsets_error = err
    print("batch + offsets ->", type(err).__name__ + ":", err)

large = jnp.array(100_000_000.0, dtype=jnp.float32)
lost = float((large + 1.0) - large)         # float32 neighbours near 1e8 are 8 apart
print("float32 (1e8 + 1) - 1e8 =", lost, "| dtype of large + 1.0:", (large + 1.0).dtype)

assert feature_biased.shape == (2, 3) and row_offset.shape == (2, 3)
assert jnp.array_equal(feature_biased, jnp.array([[11.0, 22.0, 33.0], [14.0, 25.0, 36.0]]))
assert jnp.array_equal(row_offset, jnp.array([[101.0, 102.0, 103.0], [204.0, 205.0, 206.0]]))
assert aligned.shape == (3,) and pairwise.shape == (3, 3)
assert float(jnp.mean(aligned ** 2)) == 0.0
assert jnp.allclose(jnp.mean(pairwise ** 2), 16.0 / 3.0)   # a positive loss for perfect predictions
assert bare_offsets_error is not None, "(2, 3) + (2,) must not broadcast"
assert lost == 0.0 and (large + 1.0).dtype == jnp.float32
print("PASS: arrays-02")
