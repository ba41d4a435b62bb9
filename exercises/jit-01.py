# Lesson jit-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/jit-01.py (or tpu, or gpu); it ends PASS: jit-01

# Tracing: jit runs the Python body once per new signature and replays the compiled program otherwise.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp

trace_log = []


def power_of(x, power):
    trace_log.append(jax.typeof(x))      # trace time only
    y = x
    for _ in range(power - 1):           # unrolled while tracing: power must be static
        y = y * x
    return y


compiled_power = jax.jit(power_of, static_argnames="power")
calls = [
    (jnp.array([1.0, 2.0, 3.0]), 2), (jnp.array([4.0, 5.0, 6.0]), 2), (jnp.ones(4), 2),
    (jnp.arange(3), 2), (jnp.array([1.0, 2.0, 3.0]), 3), (jnp.array([4.0, 5.0, 6.0]), 3),
    (2.0, 2), (3.0, 2), (jnp.float32(2.0), 2), (jnp.array([1.0, 2.0, 3.0]), 2),
]
traced, results = [], []
for number, (x, power) in enumerate(calls, start=1):
    before = len(trace_log)
    results.append(compiled_power(x, power))
    traced.append(len(trace_log) > before)
    print(f"call {number:2}: {str(jax.typeof(x)):>11}, power {power} | traced: {str(traced[-1]):5} | result {results[-1]}")
print("traces:", len(trace_log), "in", len(calls), "calls")

jaxpr_cube = jax.make_jaxpr(power_of, static_argnums=1)(jnp.array([1.0, 2.0, 3.0]), 3)
print("recorded primitives, power 3:", [eqn.primitive.name for eqn in jaxpr_cube.jaxpr.eqns])

assert traced == [True, False, True, True, True, False, True, False, True, False]
assert jnp.array_equal(results[0], jnp.array([1.0, 4.0, 9.0]))
assert jnp.array_equal(results[3], jnp.array([0, 1, 4])) and results[3].dtype == jnp.int32
assert float(results[6]) == float(results[8]) == 4.0
assert results[6].weak_type and not results[8].weak_type
assert [eqn.primitive.name for eqn in jaxpr_cube.jaxpr.eqns] == ["mul", "mul"]
print("PASS: jit-01")
