# Lesson jit-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/jit-02.py (or tpu, or gpu); it ends PASS: jit-02

# Timing compiled code honestly: wait for results, separate the first call, compile on purpose.
import os
import time

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a plain `python` run uses the CPU

import jax
import jax.numpy as jnp
import numpy as np

traces = []


def layer(w, x):
    traces.append(x.shape)
    return jnp.tanh(jnp.dot(x, w, precision="highest"))


fast_layer = jax.jit(layer)
rng = np.random.default_rng(0)
w = jnp.asarray(rng.standard_normal((256, 256), dtype=np.float32) / 16.0)
x = jnp.asarray(rng.standard_normal((128, 256), dtype=np.float32))
jax.block_until_ready((w, x))

start = time.perf_counter()
y = jax.block_until_ready(fast_layer(w, x))
first_call = time.perf_counter() - start

steady = []
for _ in range(10):
    start = time.perf_counter()
    y = jax.block_until_ready(fast_layer(w, x))
    steady.append(time.perf_counter() - start)

start = time.perf_counter()
y_unwaited = fast_layer(w, x)
dispatch_only = time.perf_counter() - start
jax.block_until_ready(y_unwaited)

compiled_layer = jax.jit(layer).lower(w, jax.ShapeDtypeStruct((32, 256), jnp.float32)).compile()
y_small = compiled_layer(w, x[:32])

print(f"first call:                  {first_call * 1e3:8.3f} ms")
print(f"steady state (median of 10): {np.median(steady) * 1e3:8.3f} ms")
print(f"one call without waiting:    {dispatch_only * 1e3:8.3f} ms")
print("traces:", traces)

assert traces == [(128, 256), (32, 256)]
reference = np.tanh(np.asarray(x, np.float64) @ np.asarray(w, np.float64))
assert np.allclose(np.asarray(y), reference, atol=1e-4)  # a TPU's tanh is off by up to about 4e-5
assert np.allclose(np.asarray(y_small), np.asarray(y[:32]), atol=1e-5)
try:
    compiled_layer(w, x)
    raise AssertionError("the compiled layer accepted a shape it was not compiled for")
except TypeError as err:
    print("another shape:", str(err).splitlines()[-1].strip())
print("PASS: jit-02")
