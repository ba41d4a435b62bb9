# Lesson state-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/state-01.py (or tpu, or gpu); it ends PASS: state-01

# State in, state out: running statistics as a step function driven by jax.lax.scan.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from typing import NamedTuple

import jax
import jax.numpy as jnp


class RunningStats(NamedTuple):
    count: jax.Array   # int32 scalar
    mean: jax.Array    # float32, shape (features,)
    m2: jax.Array      # float32, shape (features,)


def init_stats(num_features):
    return RunningStats(count=jnp.int32(0), mean=jnp.zeros(num_features), m2=jnp.zeros(num_features))


def welford_step(state, x):
    count = state.count + 1
    delta = x - state.mean
    mean = state.mean + delta / count
    m2 = state.m2 + delta * (x - mean)
    return RunningStats(count, mean, m2), {"mean": mean, "variance": m2 / count}


@jax.jit
def run_stats(state, rows):
    return jax.lax.scan(welford_step, state, rows)


readings = jnp.array([[1.0, 2.0], [3.0, 2.0], [5.0, 2.0], [11.0, 6.0]])
state0 = init_stats(2)
final_state, metrics = run_stats(state0, readings)

print("final state:", final_state)
print("running mean per step:", metrics["mean"].tolist())
print("variance per step:    ", metrics["variance"].tolist())
print("primitives:", [eqn.primitive.name for eqn in jax.make_jaxpr(run_stats.__wrapped__)(state0, readings).eqns])

assert isinstance(final_state, RunningStats) and int(final_state.count) == 4
assert jnp.array_equal(final_state.mean, jnp.array([5.0, 3.0]))
assert jnp.array_equal(final_state.m2, jnp.array([56.0, 12.0]))
assert jnp.allclose(final_state.m2 / final_state.count, jnp.var(readings, axis=0))
assert metrics["mean"].shape == (4, 2)
assert int(state0.count) == 0
print("PASS: state-01")
