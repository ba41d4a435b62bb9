# Lesson control-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/control-01.py (or tpu, or gpu); it ends PASS: control-01

# Control flow you can compile: a running record with jax.lax.scan.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp

readings = jnp.array([3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0, 6.0])
init = (jnp.array(-jnp.inf, dtype=jnp.float32), jnp.int32(0))   # (best so far, number of records)


def record_step(carry, x):
    best, records = carry
    is_record = x > best
    best = jnp.where(is_record, x, best)
    records = records + is_record.astype(jnp.int32)
    return (best, records), best


def running_record(xs):
    return jax.lax.scan(record_step, init, xs)


def python_loop_record(xs):
    carry, outputs = init, []
    for x in xs:
        carry, y = record_step(carry, x)
        outputs.append(y)
    return carry, jnp.stack(outputs)


(final_best, n_records), scan_best = jax.jit(running_record)(readings)
_, loop_best = python_loop_record(readings)
primitives = [eqn.primitive.name for eqn in jax.make_jaxpr(running_record)(readings).eqns]

print("readings:   ", readings)
print("best so far:", scan_best)
print("final carry: best", float(final_best), "| records", int(n_records))
print("primitives: ", primitives)

assert jnp.array_equal(scan_best, loop_best)
assert jnp.array_equal(scan_best, jax.lax.cummax(readings))
assert float(final_best) == 9.0 and int(n_records) == 4
assert scan_best.shape == readings.shape and primitives == ["scan"]
print("PASS: control-01")
