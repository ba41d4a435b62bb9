# Lesson recovery-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/recovery-01.py (or tpu, or gpu); it ends PASS: recovery-01

# Save everything you need to resume: train 40 steps, checkpoint the whole state with orbax,
# restore it into an abstract target in a "new process", and check that 20 more steps match
# the run that never stopped, bit for bit (same platform, same process).
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins

import pathlib
import tempfile
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import orbax.checkpoint as ocp

N_ROWS, BATCH, NOISE = 24, 4, 0.1
optimizer = optax.adam(0.2)


class TrainState(NamedTuple):
    params: dict              # the model
    opt_state: tuple          # Adam's count and moments
    step: jax.Array           # updates done
    key_data: jax.Array       # the key for the next step, as uint32 data
    data_position: jax.Array  # the loader's cursor
    norm: dict                # preprocessing statistics, fit once


def init_state(key, raw):
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    state = TrainState(params, optimizer.init(params), jnp.int32(0), jax.random.key_data(key), jnp.int32(0),
                       {"mean": jnp.asarray(raw.mean(axis=0)), "std": jnp.asarray(raw.std(axis=0))})
    return jax.device_put(state, jax.devices()[0])    # committed, like a restored state


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(state, data):
    raw, targets = data
    key, noise_key = jax.random.split(jax.random.wrap_key_data(state.key_data))
    rows = (state.data_position + jnp.arange(BATCH)) % N_ROWS
    x = (raw[rows] - state.norm["mean"]) / state.norm["std"]
    x = x + NOISE * jax.random.normal(noise_key, x.shape)
    updates, opt_state = optimizer.update(jax.grad(loss_fn)(state.params, x, targets[rows]), state.opt_state)
    new_state = TrainState(optax.apply_updates(state.params, updates), opt_state, state.step + 1,
                           jax.random.key_data(key), (state.data_position + BATCH) % N_ROWS, state.norm)
    return new_state, loss_fn(new_state.params, (raw - state.norm["mean"]) / state.norm["std"], targets)


def run(state, data, num_steps):
    losses = []
    for _ in range(num_steps):
        state, loss = train_step(state, data)
        losses.append(float(loss))
    return state, losses


rng = np.random.default_rng(0)                       # the data: 24 rows of 3 raw features
z = rng.standard_normal((N_ROWS, 3))
raw = (np.array([20.0, 1000.0, 0.5]) + np.array([5.0, 10.0, 0.2]) * z).astype(np.float32)
targets = (z @ np.array([2.0, -1.0, 0.5]) + 3.0 + 0.1 * rng.standard_normal(N_ROWS)).astype(np.float32)
data = (jnp.asarray(raw), jnp.asarray(targets))

state0 = init_state(jax.random.key(1), raw)
state_40, _ = run(state0, data, 40)
path = pathlib.Path(tempfile.mkdtemp()).resolve() / "step_40"        # absolute, and not there yet
checkpointer = ocp.StandardCheckpointer()
checkpointer.save(path, state_40)
checkpointer.wait_until_finished()
state_60, uninterrupted = run(state_40, data, 20)

abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, init_state(jax.random.key(1), raw))
restored = checkpointer.restore(path, abstract)
checkpointer.close()
resumed_60, resumed = run(restored, data, 20)

print("restored a", type(restored).__name__, "at step", int(restored.step), "| data_position",
      int(restored.data_position), "| key_data", restored.key_data.tolist())
print(f"loss after step 60: uninterrupted {uninterrupted[-1]:.6f}, resumed {resumed[-1]:.6f}")
print("w after step 60:", [round(float(v), 4) for v in resumed_60.params["w"]], "| b:", round(float(resumed_60.params["b"]), 4))

assert type(restored) is TrainState and type(restored.opt_state[0]) is type(state_40.opt_state[0])
same = jax.tree.map(lambda a, b: a.dtype == b.dtype and np.array_equal(a, b), restored, state_40)
assert all(jax.tree.leaves(same))                    # every leaf came back, bit for bit
assert resumed == uninterrupted                      # and the continuation is the same run
assert all(jax.tree.leaves(jax.tree.map(np.array_equal, resumed_60, state_60)))
print("PASS: recovery-01")
