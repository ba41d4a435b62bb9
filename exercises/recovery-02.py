# Lesson recovery-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/recovery-02.py (or tpu, or gpu); it ends PASS: recovery-02

# Bitwise resume: batches are a function of (key, step), so the checkpoint's step is the data
# position. Train with a checkpoint every 5 steps, crash at step 13, restart from the newest
# checkpoint, and check that the resumed run is the uninterrupted one, bit for bit (same platform,
# same process, same compiled step).
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

N_ROWS, BATCH, NOISE = 18, 4, 0.1
STEPS_PER_EPOCH = N_ROWS // BATCH
DATA_KEY = jax.random.key(7)
optimizer = optax.adam(0.1)


def batch_rows(step):                                    # the batch of a step: a function of (key, step)
    epoch, position = divmod(step, STEPS_PER_EPOCH)
    order = jax.random.permutation(jax.random.fold_in(DATA_KEY, epoch), N_ROWS)
    return order[position * BATCH:(position + 1) * BATCH]


class TrainState(NamedTuple):
    params: dict          # the model
    opt_state: tuple      # Adam's count and moments
    step: jax.Array       # steps done: also the position in the data
    key_data: jax.Array   # the noise key of the next step, as uint32 data


def init_state(key):
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    state = TrainState(params, optimizer.init(params), jnp.int32(0), jax.random.key_data(key))
    return jax.device_put(state, jax.devices()[0])       # committed, like a restored state


def loss_fn(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


@jax.jit
def train_step(state, batch):
    x, y = batch
    key, noise_key = jax.random.split(jax.random.wrap_key_data(state.key_data))
    x = x + NOISE * jax.random.normal(noise_key, x.shape)
    loss, grads = jax.value_and_grad(loss_fn)(state.params, x, y)
    updates, opt_state = optimizer.update(grads, state.opt_state, state.params)
    return TrainState(optax.apply_updates(state.params, updates), opt_state, state.step + 1,
                      jax.random.key_data(key)), loss


def lesson_step(state):                                  # the batch comes from the state's own step
    rows = batch_rows(int(state.step))
    return train_step(state, (data[0][rows], data[1][rows]))


def run_until(step_fn, state, stop, manager=None):
    losses = []
    while int(state.step) < stop:
        state, loss = step_fn(state)
        losses.append(float(loss))
        if manager is not None:
            manager.save(int(state.step), args=ocp.args.StandardSave(state))
    return state, losses


def bitwise_equal(a, b):                                 # same structure, dtypes and bits in every leaf
    return jax.tree.structure(a) == jax.tree.structure(b) and all(
        x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)))


rng = np.random.default_rng(0)
x_all = rng.standard_normal((N_ROWS, 3)).astype(np.float32)
y_all = (x_all @ np.array([2.0, -1.0, 0.5]) + 1.0 + 0.3 * rng.standard_normal(N_ROWS)).astype(np.float32)
data = jax.device_put((x_all, y_all), jax.devices()[0])

state0 = init_state(jax.random.key(1))
uninterrupted, losses_uninterrupted = run_until(lesson_step, state0, 24)

run_dir = pathlib.Path(tempfile.mkdtemp()).resolve() / "run"
options = ocp.CheckpointManagerOptions(save_interval_steps=5)
manager = ocp.CheckpointManager(run_dir, options=options)
lost_13, _ = run_until(lesson_step, state0, 13, manager)     # the job dies at step 13
manager.wait_until_finished()
manager.close()

manager = ocp.CheckpointManager(run_dir, options=options)     # a new process: same code, state from disk
abstract = jax.tree.map(ocp.utils.to_shape_dtype_struct, init_state(jax.random.key(1)))
latest = manager.latest_step()
restored = manager.restore(latest, args=ocp.args.StandardRestore(abstract))
manager.close()
resumed, losses_resumed = run_until(lesson_step, restored, 24)

print("checkpoints:", sorted(int(name) for name in os.listdir(run_dir)), "| resumed from step", latest,
      "| Adam count", int(restored.opt_state[0].count))
print("next batch after the restart:", batch_rows(int(restored.step)).tolist())
print(f"loss of step 23: uninterrupted {losses_uninterrupted[-1]:.6f}, resumed {losses_resumed[-1]:.6f}")
print("w after step 23:", [round(float(v), 4) for v in resumed.params["w"]], "| b:", round(float(resumed.params["b"]), 4))

assert type(restored) is TrainState and latest == 10
assert bitwise_equal(run_until(lesson_step, restored, 13)[0], lost_13)   # the lost steps 10..12, recomputed exactly
assert losses_resumed == losses_uninterrupted[10:]
assert bitwise_equal(resumed, uninterrupted)
print("PASS: recovery-02")
