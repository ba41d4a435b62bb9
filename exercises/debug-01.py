# Lesson debug-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/debug-01.py (or tpu, or gpu); it ends PASS: debug-01

# Seeing inside compiled code: record every step of a compiled loop on the host, and let
# checkify name the first step whose loss is not finite.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import checkify

LR, STEPS = 5.5, 48          # w <- w - 5.5 * 2w = -10 w, so the loss w**2 grows 100x per step


def train_step(w, step):
    loss, grad = jax.value_and_grad(lambda v: v ** 2)(w)
    return w - LR * grad, loss


host_log = []


def watched_step(w, step):
    w_next, loss = train_step(w, step)
    jax.debug.callback(lambda s, v: host_log.append((int(s), float(v))), step, loss, ordered=True)
    return w_next, loss


def checked_step(w, step):
    w_next, loss = train_step(w, step)
    checkify.check(jnp.isfinite(loss), "loss is {loss} at step {step}", loss=loss, step=step)
    return w_next, loss


watched_run = jax.jit(lambda w0: jax.lax.scan(watched_step, w0, jnp.arange(STEPS)))
checked_run = jax.jit(checkify.checkify(lambda w0: jax.lax.scan(checked_step, w0, jnp.arange(STEPS))))

w_final, losses = watched_run(jnp.float32(1.0))
jax.effects_barrier()                              # wait until every callback has run
err, (_, checked_losses) = checked_run(jnp.float32(1.0))

losses_np = np.asarray(losses)
first_inf = int(np.flatnonzero(np.isinf(losses_np))[0])
first_nan = int(np.flatnonzero(np.isnan(losses_np))[0])
print("host log:", len(host_log), "entries; steps in order:", [s for s, _ in host_log] == list(range(STEPS)))
print("steps 19-20 on the host:", host_log[19:21])
print("first inf loss: step", first_inf, "| first nan loss: step", first_nan, "| final w:", w_final)
print("checkify says:", err.get())

assert len(host_log) == STEPS and [s for s, _ in host_log] == list(range(STEPS))
assert np.array_equal(np.array([v for _, v in host_log], dtype=np.float32), losses_np, equal_nan=True)
assert np.array_equal(np.asarray(checked_losses), losses_np, equal_nan=True)
assert first_inf == 20 and first_nan == 40
assert err.get().startswith("loss is inf at step 20")
print("PASS: debug-01")
