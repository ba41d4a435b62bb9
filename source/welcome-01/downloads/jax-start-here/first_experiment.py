"""Your first JAX experiment: print what ran, then check one known sum."""
import os

# Choose the CPU before JAX is imported; a value you set in the terminal still wins.
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import platform

import jax
import jax.numpy as jnp
import numpy as np

print("Python:", platform.python_version())
print("JAX:", jax.__version__)
print("NumPy:", np.__version__)
print("Backend:", jax.default_backend())
print("Devices:", jax.devices())

x = jnp.arange(4, dtype=jnp.float32)  # 0, 1, 2, 3
print("Sum:", float(x.sum()))
assert float(x.sum()) == 6.0  # the expected result: change it when you change the program
