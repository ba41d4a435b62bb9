# Lesson state-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/state-02.py (or tpu, or gpu); it ends PASS: state-02

# Recurrent loops and memory: an RNN as a scan, a checkpointed backward pass, a donating step.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np

NUM_INPUTS, NUM_HIDDEN, NUM_STEPS = 3, 4, 12
LEARNING_RATE = 0.5


def init_params(key, num_inputs, num_hidden):
    draws = jax.random.normal(key, (num_hidden + num_inputs, num_hidden))
    return {"W": draws[:num_hidden] / jnp.sqrt(num_hidden),
            "U": draws[num_hidden:] / jnp.sqrt(num_inputs),
            "b": jnp.zeros(num_hidden)}


def rnn_cell(params, h, x):
    return jnp.tanh(h @ params["W"] + x @ params["U"] + params["b"])


def encode(params, h0, xs):
    def body(h, x):
        return rnn_cell(params, h, x), None
    h_final, _ = jax.lax.scan(body, h0, xs)
    return h_final


def encode_remat(params, h0, xs):
    def body(h, x):
        return rnn_cell(params, h, x), None
    h_final, _ = jax.lax.scan(jax.checkpoint(body), h0, xs)
    return h_final


def loss_plain(params, h0, xs, target):
    return jnp.mean((encode(params, h0, xs) - target) ** 2)


def loss_remat(params, h0, xs, target):
    return jnp.mean((encode_remat(params, h0, xs) - target) ** 2)


def sgd_step(state, batch):
    batch_xs, batch_target = batch
    loss, grads = jax.value_and_grad(loss_remat)(state, jnp.zeros_like(state["b"]), batch_xs, batch_target)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, state, grads), {"loss": loss}


params = init_params(jax.random.key(0), NUM_INPUTS, NUM_HIDDEN)
h0 = jnp.zeros(NUM_HIDDEN)
t = np.arange(NUM_STEPS)
xs = jnp.asarray(np.stack([np.sin(t), np.cos(t), t % 4 == 0], axis=1), dtype=jnp.float32)
target = jnp.array([0.5, -0.5, 0.25, 0.0])

loss_a, grads_a = jax.jit(jax.value_and_grad(loss_plain))(params, h0, xs, target)
loss_b, grads_b = jax.jit(jax.value_and_grad(loss_remat))(params, h0, xs, target)
remat_text = str(jax.make_jaxpr(loss_remat)(params, h0, xs, target))
print("loss plain:", float(loss_a), "| loss with checkpoint:", float(loss_b))
print("checkpoint inside the scan:", "remat" in remat_text.split("scan[", 1)[-1].lower())

train_step = jax.jit(sgd_step, donate_argnums=0)
flags = [info.donated for info in jax.tree.leaves(train_step.lower(params, (xs, target)).args_info)]
print("donated flags (U, W, b, xs, target):", flags)

state = jax.tree.map(jnp.copy, params)
first_state = state
losses = []
for _ in range(5):
    state, metrics = train_step(state, (xs, target))
    losses.append(round(float(metrics["loss"]), 4))
print("losses:", losses)
print("first state deleted after donation:", first_state["W"].is_deleted())

assert jnp.allclose(loss_a, loss_b)
assert all(jnp.allclose(grads_a[k], grads_b[k], atol=1e-6) for k in params)
assert "remat" in remat_text.split("scan[", 1)[-1].lower()
assert flags == [True, True, True, False, False]
assert first_state["W"].is_deleted() and not params["W"].is_deleted()
assert losses[-1] < losses[0]
print("PASS: state-02")
