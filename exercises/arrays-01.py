# Lesson arrays-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/arrays-01.py (or tpu, or gpu); it ends PASS: arrays-01

# Fitted standardization: one mean and one scale per feature, learned on the training rows and reused for new rows.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a platform chosen earlier wins

import jax.numpy as jnp
import numpy as np

x = jnp.array([[1.0, 10.0], [3.0, 14.0], [5.0, 18.0]])   # axis 0: 3 observations, axis 1: 2 features
mean = x.mean(axis=0)                                      # (2,): one per feature
std = x.std(axis=0)                                        # (2,): ddof=0, divides by N = 3
centered = x - mean                                        # (3, 2) - (2,): the same row from every row
standardized = centered / std
print("mean:", mean, "| std:", std, "| shapes", mean.shape, std.shape)
print("centered:\n", centered)
print("standardized:\n", standardized)

reference = np.array([[1.0, 10.0], [3.0, 14.0], [5.0, 18.0]], dtype=np.float32)  # same dtype, axis, ddof
print("NumPy float32 reference: mean", reference.mean(axis=0), "| std", reference.std(axis=0))

new_batch = jnp.array([[7.0, 22.0]])
in_training_coordinates = (new_batch - mean) / std         # the training statistics, not re-fitted
refitted = (new_batch - new_batch.mean(axis=0)) / new_batch.std(axis=0)   # the mistake: 0 / 0
print("new row with the training statistics:", in_training_coordinates)
print("new row re-fitted on itself:         ", refitted)

assert mean.shape == (2,) and std.shape == (2,) and standardized.shape == (3, 2)
assert jnp.allclose(mean, jnp.array([3.0, 14.0]))
assert jnp.allclose(centered.mean(axis=0), 0.0, atol=1e-6)          # each column mean is zero
assert jnp.allclose(std, jnp.sqrt(jnp.array([8.0 / 3.0, 32.0 / 3.0])))
assert np.allclose(np.asarray(mean), reference.mean(axis=0)) and np.allclose(np.asarray(std), reference.std(axis=0))
assert jnp.allclose(standardized[:, 0], standardized[:, 1])        # the same pattern in both features
assert jnp.allclose(in_training_coordinates, jnp.sqrt(6.0))        # about 2.449, beyond every training row
assert bool(jnp.all(jnp.isnan(refitted)))                           # re-fitting erased the evidence
print("PASS: arrays-01")
