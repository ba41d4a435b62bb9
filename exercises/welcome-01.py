# Lesson welcome-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/welcome-01.py (or tpu, or gpu); it ends PASS: welcome-01

# A first JAX experiment: report what ran, then check one sum you can do by hand.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # before import jax: the import reads it

import platform

import jax
import jax.numpy as jnp
import numpy as np

print("Python: ", platform.python_version())
print("JAX:    ", jax.__version__)
print("NumPy:  ", np.__version__)
print("Backend:", jax.default_backend())
print("Devices:", jax.devices())

x = jnp.arange(4, dtype=jnp.float32)   # 0, 1, 2, 3
total = float(x.sum())                 # a zero-dimensional JAX array, copied into a Python float
squares = float((x ** 2).sum())        # 0 + 1 + 4 + 9
print("x:", x, "| shape", x.shape, "|", x.dtype, "| on", x.devices())
print("Sum:", total)
print("Sum of squares:", squares)

# Whole numbers below 2**24 are exact in float32, so == is a fair test on every backend.
assert x.shape == (4,) and x.dtype == jnp.float32
assert x.devices() == {jax.devices()[0]}, "a new array lives on the default backend's first device"
assert jax.default_backend() in ("cpu", "gpu", "tpu")
assert total == 6.0, f"expected 0 + 1 + 2 + 3 = 6.0, got {total}"
assert squares == 14.0, f"expected 0 + 1 + 4 + 9 = 14.0, got {squares}"
print("PASS: welcome-01")
