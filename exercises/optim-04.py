# Lesson optim-04: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/optim-04.py (or tpu, or gpu); it ends PASS: optim-04

# Numerically stable losses and gradients: one model, one optimizer, two loss formulas.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
import optax


def bce_naive(logits, labels):
    """The probability formula: sigmoid first, then the logs."""
    p = jax.nn.sigmoid(logits)
    return -(labels * jnp.log(p) + (1.0 - labels) * jnp.log(1.0 - p))


# 1. Extreme inputs: the probability formula against log space.
logits = jnp.array([-100.0, -20.0, 0.0, 20.0, 100.0])
labels = jnp.array([1.0, 0.0, 1.0, 0.0, 1.0])
naive_values = bce_naive(logits, labels)
stable_values = optax.sigmoid_binary_cross_entropy(logits, labels)
rows = jnp.array([[1.0, 2.0, 3.0], [1000.0, 1000.0, 1000.0], [-1000.0, -1000.0, -1000.0]])
naive_lse = jnp.log(jnp.sum(jnp.exp(rows), axis=-1))
stable_lse = jax.nn.logsumexp(rows, axis=-1)
print("BCE, probability formula:", naive_values)
print("BCE, from the logit:     ", stable_values)
print("naive logsumexp:         ", naive_lse)
print("jax.nn.logsumexp:        ", stable_lse)

# 2. Logistic regression on a raw feature, clipped SGD, once with each loss.
xs = jnp.array([-80.0, -30.0, -20.0, -12.0, -6.0, -3.0, 2.0, 4.0, 5.0, 9.0, 15.0, 24.0, 33.0, 80.0])
ys = jnp.array([0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])


def logits_of(params, x):
    return params["w"] * x + params["b"]


def naive_loss(params, x, y):
    return jnp.mean(bce_naive(logits_of(params, x), y))


def stable_loss(params, x, y):
    return jnp.mean(optax.sigmoid_binary_cross_entropy(logits_of(params, x), y))


optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.05))


def make_train(loss_fn, steps=30):
    def step(state, batch):
        params, opt_state = state
        loss, grads = jax.value_and_grad(loss_fn)(params, xs, ys)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
        metrics = {"loss": loss, "grad_norm": optax.tree.norm(grads),
                   "update_norm": optax.tree.norm(updates),
                   "max_abs_logit": jnp.max(jnp.abs(logits_of(params, xs)))}
        return (params, opt_state), metrics

    @jax.jit
    def train(params):
        return jax.lax.scan(step, (params, optimizer.init(params)), None, length=steps)

    return train


params0 = {"w": jnp.array(0.0), "b": jnp.array(0.0)}
(naive_params, _), naive_metrics = make_train(naive_loss)(params0)
(stable_params, _), stable_metrics = make_train(stable_loss)(params0)
first_nan = int(np.argmax(np.isnan(np.asarray(naive_metrics["loss"]))))
print("naive loss, steps 0-7: ", naive_metrics["loss"][:8])
print("stable loss, steps 0-7:", stable_metrics["loss"][:8])
print("largest |logit| after steps 0-7:", stable_metrics["max_abs_logit"][:8])
print("first nan loss of the naive run: step", first_nan)
print("update norms, steps 0-3:", stable_metrics["update_norm"][:4])
print("stable run after 30 steps: loss", float(stable_metrics["loss"][-1]),
      "| w", float(stable_params["w"]), "| b", float(stable_params["b"]))

# 3. The invariants, checked on NumPy copies.
naive_np, stable_np, lse_np = np.asarray(naive_values), np.asarray(stable_values), np.asarray(stable_lse)
assert np.all(np.isfinite(stable_np)) and np.all(np.isfinite(lse_np))
assert np.allclose(stable_np[1:3], naive_np[1:3])
assert np.isinf(naive_np[0]) and np.isnan(naive_np[-1])
assert np.allclose(lse_np, [3.407606, 1000.0 + np.log(3.0), -1000.0 + np.log(3.0)], rtol=1e-3)   # a TPU's exp/log: ~1e-4
naive_losses, stable_losses = np.asarray(naive_metrics["loss"]), np.asarray(stable_metrics["loss"])
assert np.all(np.isfinite(naive_losses[:first_nan])) and np.all(np.isnan(naive_losses[first_nan:]))
assert np.isnan(float(naive_params["w"]))
assert np.allclose(naive_losses[:first_nan], stable_losses[:first_nan], rtol=1e-3)
assert np.all(np.isfinite(stable_losses)) and np.all(np.diff(stable_losses) < 0)
assert float(stable_metrics["max_abs_logit"][first_nan - 1]) > 15.0
update_norms, grad_norms = np.asarray(stable_metrics["update_norm"]), np.asarray(stable_metrics["grad_norm"])
assert np.all(update_norms <= 0.05 * (1 + 1e-6))
assert np.allclose(update_norms[grad_norms > 1.0], 0.05)
print("PASS: optim-04")
