# Lesson vmap-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/vmap-01.py (or tpu, or gpu); it ends PASS: vmap-01

import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a plain `python` run uses the CPU

import jax
import jax.numpy as jnp


def predict_one(params, x):
    """Class scores for ONE example: x has shape (features,), the result (classes,)."""
    return params["W"] @ x + params["b"]


params = {"W": jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
          "b": jnp.array([0.0, 0.0, 1.0])}
xs = jnp.array([[2.0, 3.0], [1.0, 0.0], [0.0, -1.0], [4.0, 4.0]])

predict_batch = jax.vmap(predict_one, in_axes=(None, 0))   # params shared, xs batched on axis 0
scores = predict_batch(params, xs)
looped = jnp.stack([predict_one(params, row) for row in xs])

print("one example:", predict_one(params, xs[0]))
print("batch of 4, shape", scores.shape)
print(scores)

assert scores.shape == (4, 3)
assert jnp.array_equal(scores, looped)
assert jnp.array_equal(scores, xs @ params["W"].T + params["b"])
assert jnp.array_equal(scores[0], jnp.array([2.0, 3.0, 6.0]))
print("PASS: vmap-01")
