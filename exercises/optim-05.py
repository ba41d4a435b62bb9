# Lesson optim-05: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/optim-05.py (or tpu, or gpu); it ends PASS: optim-05

# Per-example gradients and accumulation: the batch gradient is the mean of per-example
# gradients, so it can be clipped term by term and rebuilt from microbatches.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins

import jax
import jax.numpy as jnp
import optax


def loss_one(w, x, y):
    return 0.5 * (jnp.dot(w, x) - y) ** 2


def batch_loss(w, xs, ys):
    return jnp.mean(jax.vmap(loss_one, in_axes=(None, 0, 0))(w, xs, ys))


xs = jnp.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [1.5, -2.0]])   # example 3 is an outlier
ys = jnp.array([-1.0, -1.0, -1.0, -2.0])
w = jnp.zeros(2)

# 1. One gradient per example; their mean is the gradient of the mean loss.
per_example = jax.vmap(jax.grad(loss_one), in_axes=(None, 0, 0))(w, xs, ys)
norms = jnp.sqrt(jnp.sum(per_example ** 2, axis=1))
full = jax.grad(batch_loss)(w, xs, ys)
print("per-example gradients:", per_example.tolist())
print("norms:", jnp.round(norms, 4), "| batch gradient:", full)

# 2. Clip each example to norm 1, then average; compare with clipping the average.
max_norm = 1.0
clip_then_mean = jnp.mean(per_example * jnp.minimum(1.0, max_norm / norms)[:, None], axis=0)
mean_then_clip = full * jnp.minimum(1.0, max_norm / jnp.linalg.norm(full))
print("clip each, then mean:", clip_then_mean)
print("mean, then clip:     ", mean_then_clip)

# 3. Two microbatches: sum their gradients and divide by k; MultiSteps does it for an optimizer.
k = 2
micro_xs, micro_ys = xs.reshape(k, 2, 2), ys.reshape(k, 2)
total = sum(jax.grad(batch_loss)(w, micro_xs[j], micro_ys[j]) for j in range(k))
print("accumulated sum:", total, "| divided by k:", total / k)

tx = optax.MultiSteps(optax.sgd(0.5), every_k_schedule=k)
tx_update = jax.jit(tx.update)
state, params, first_update = tx.init(w), w, None
for j in range(k):
    updates, state = tx_update(jax.grad(batch_loss)(params, micro_xs[j], micro_ys[j]), state, params)
    params = optax.apply_updates(params, updates)
    first_update = updates if first_update is None else first_update
print("MultiSteps: first update", first_update, "| params after k calls", params)
print("one full-batch SGD step:", w - 0.5 * full)

assert jnp.array_equal(jnp.mean(per_example, axis=0), full)
assert jnp.array_equal(full, jnp.array([1.125, -0.625]))
assert jnp.allclose(clip_then_mean, jnp.array([0.525, 0.175]))
assert float(clip_then_mean[1]) > 0 > float(mean_then_clip[1])        # only clip-then-mean resists the outlier
assert jnp.array_equal(total / k, full) and not jnp.array_equal(total, full)
assert jnp.array_equal(first_update, jnp.zeros(2))
assert jnp.array_equal(params, w - 0.5 * full)
print("PASS: optim-05")
