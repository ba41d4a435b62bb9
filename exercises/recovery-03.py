# Lesson recovery-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/recovery-03.py (or tpu, or gpu); it ends PASS: recovery-03

# NaN rollback and preemption: guard every step against NaN and inf, roll a diverging run back to a
# checked snapshot with a smaller learning rate, and stop at a step boundary when SIGTERM arrives,
# with a checkpoint of exactly that step. Comparisons are exact: same process, same platform.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins

import pathlib
import signal
import tempfile
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
import orbax.checkpoint as ocp

NUM_STEPS, BATCH, EVERY, MAX_LOSS = 40, 8, 4, 100.0
optimizer = optax.inject_hyperparams(optax.sgd)(learning_rate=0.1, momentum=0.5)


class TrainState(NamedTuple):
    params: dict        # a two-layer linear network: w1 (3, 4), w2 (4,)
    opt_state: tuple    # momentum SGD, with the learning rate in the state
    step: jax.Array     # batches consumed: the index of the next batch
    skipped: jax.Array  # updates the guard refused


def loss_fn(params, batch):
    x, y = batch
    return jnp.mean((x @ params["w1"] @ params["w2"] - y) ** 2)


def with_learning_rate(state, learning_rate):
    hyperparams = state.opt_state.hyperparams
    old = hyperparams["learning_rate"]
    rate = jax.device_put(jnp.asarray(learning_rate, dtype=old.dtype), old.sharding)   # same dtype, same device
    return state._replace(opt_state=state.opt_state._replace(hyperparams={**hyperparams, "learning_rate": rate}))


def init_state(key, learning_rate):
    k1, k2 = jax.random.split(key)
    params = {"w1": 0.5 * jax.random.normal(k1, (3, 4)), "w2": 0.5 * jax.random.normal(k2, (4,))}
    state = TrainState(params, optimizer.init(params), jnp.int32(0), jnp.int32(0))
    return jax.device_put(with_learning_rate(state, learning_rate), jax.devices()[0])


def all_finite(tree):
    return jnp.all(jnp.stack([jnp.all(jnp.isfinite(leaf)) for leaf in jax.tree.leaves(tree)]))


@jax.jit
def plain_step(state, batch):
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = optimizer.update(grads, state.opt_state, state.params)
    return state._replace(params=optax.apply_updates(state.params, updates), opt_state=opt_state,
                          step=state.step + 1), {"loss": loss}


@jax.jit
def train_step(state, batch):
    """The guarded step: all of the update, or none of it."""
    loss, grads = jax.value_and_grad(loss_fn)(state.params, batch)
    updates, opt_state = optimizer.update(grads, state.opt_state, state.params)
    ok = jnp.isfinite(loss) & all_finite(grads)
    keep = lambda new, old: jnp.where(ok, new, old)
    return state._replace(params=jax.tree.map(keep, optax.apply_updates(state.params, updates), state.params),
                          opt_state=jax.tree.map(keep, opt_state, state.opt_state), step=state.step + 1,
                          skipped=state.skipped + jnp.where(ok, 0, 1)), {"loss": loss, "finite": ok}


def run(step_fn, state, batches):
    losses = []
    while int(state.step) < len(batches):
        state, metrics = step_fn(state, batches[int(state.step)])
        losses.append(float(metrics["loss"]))
    return state, losses


rng = np.random.default_rng(0)
x = rng.standard_normal((NUM_STEPS, BATCH, 3)).astype(np.float32)
y = (x @ np.array([2.0, -1.0, 0.5]) + 0.1 * rng.standard_normal((NUM_STEPS, BATCH))).astype(np.float32)
batches = [(jnp.asarray(xb), jnp.asarray(yb)) for xb, yb in zip(x, y)]
corrupted = batches[:3] + [(batches[3][0].at[5, 1].set(jnp.nan), batches[3][1])] + batches[4:]
state0 = init_state(jax.random.key(0), 0.1)

# 1. One NaN input value: the plain run is NaN for good, the guarded run skips one update.
plain_end, plain_losses = run(plain_step, state0, corrupted)
guarded_end, guarded_losses = run(train_step, state0, corrupted)
print(f"one NaN value in batch 3: plain run's last loss {plain_losses[-1]}, guarded run's {guarded_losses[-1]:.4f} "
      f"(skipped {int(guarded_end.skipped)})")

# 2. A learning rate of 0.4: the guard alone is stuck; rolling back with a halved rate recovers.
stuck_end, _ = run(train_step, with_learning_rate(state0, 0.4), batches)
state = snapshot = with_learning_rate(state0, 0.4)
rollbacks, calls = [], 0
while int(state.step) < NUM_STEPS:
    new_state, metrics = train_step(state, batches[int(state.step)])
    calls += 1
    if not float(metrics["loss"]) <= MAX_LOSS:
        rollbacks.append(int(state.step))
        state = with_learning_rate(snapshot, state.opt_state.hyperparams["learning_rate"] * 0.5)
        continue
    if int(state.step) % EVERY == 0:
        snapshot = state
    state, last_loss = new_state, float(metrics["loss"])
rolled_end = state
print(f"lr 0.4, guard only: {int(stuck_end.skipped)} of {NUM_STEPS} updates refused")
print(f"lr 0.4 with rollback: rolled back at steps {rollbacks}, final lr "
      f"{float(rolled_end.opt_state.hyperparams['learning_rate']):g}, {calls} calls, last loss {last_loss:.4f}")


# 3. SIGTERM while step 12 runs: the handler records it, the loop saves step 13 at the boundary.
class StopFlag:
    def __init__(self):
        self.signal = None

    def __call__(self, signum, frame):
        self.signal = signal.Signals(signum).name


def train_preemptibly(state, batches, step_fn, directory, every):
    stop = StopFlag()
    previous = signal.signal(signal.SIGTERM, stop)
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())
    try:
        while int(state.step) < len(batches):
            if stop.signal is not None:
                break
            state, _ = step_fn(state, batches[int(state.step)])
            if int(state.step) % every == 0:
                manager.save(int(state.step), args=ocp.args.StandardSave(state))
        if int(state.step) not in manager.all_steps():
            manager.save(int(state.step), args=ocp.args.StandardSave(state), force=True)
        manager.wait_until_finished()
    finally:
        manager.close()
        signal.signal(signal.SIGTERM, previous)
    return state, "preempted" if stop.signal is not None else "completed"


def notice_during(step_index):
    def step_fn(state, batch):
        new_state, metrics = train_step(state, batch)
        if int(state.step) == step_index:
            signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)   # as if SIGTERM landed here
        return new_state, metrics
    return step_fn


handler_before = signal.getsignal(signal.SIGTERM)
run_dir = pathlib.Path(tempfile.mkdtemp()).resolve() / "run"
stopped, outcome = train_preemptibly(state0, batches, notice_during(12), run_dir, every=10)
manager = ocp.CheckpointManager(run_dir)
restored = manager.restore(manager.latest_step(), args=ocp.args.StandardRestore(
    jax.tree.map(ocp.utils.to_shape_dtype_struct, state0)))
manager.close()
resumed_end, _ = run(train_step, restored, batches)
uninterrupted_end, _ = run(train_step, state0, batches)
print(f"SIGTERM during step 12: {outcome} after {int(stopped.step)} steps, checkpoints {sorted(os.listdir(run_dir))}")
print("resumed w2:      ", np.asarray(resumed_end.params["w2"]))
print("uninterrupted w2:", np.asarray(uninterrupted_end.params["w2"]))

same = lambda a, b: all(np.array_equal(u, v) for u, v in zip(jax.tree.leaves(a), jax.tree.leaves(b)))
assert np.isnan(plain_losses[-1]) and not bool(all_finite(plain_end.params))
assert int(guarded_end.skipped) == 1 and bool(all_finite(guarded_end))
assert int(stuck_end.skipped) > NUM_STEPS // 2
assert rollbacks == [2, 5, 7] and rolled_end.opt_state.hyperparams["learning_rate"] == np.float32(0.05)
assert int(rolled_end.step) == NUM_STEPS and last_loss < 0.1
assert outcome == "preempted" and int(stopped.step) == 13 and sorted(os.listdir(run_dir)) == ["10", "13"]
assert same(restored, stopped) and same(resumed_end, uninterrupted_end)
assert signal.getsignal(signal.SIGTERM) is handler_before
print("PASS: recovery-03")
