# Lesson arrays-04: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/arrays-04.py (or tpu, or gpu); it ends PASS: arrays-04

# Immutable updates and indexing: an indexed update returns a new array; the caller keeps it.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np

x = jnp.array([1.0, 2.0, 3.0, 4.0])
original = x                                  # a second name for the same value, kept for checks

# Two updates, each branching from the same x.
y = x.at[1].set(20.0)                         # replace index 1
z = x.at[jnp.array([0, 2])].add(5.0)          # add 5 at indices 0 and 2
chained = x.at[1].set(20.0).at[jnp.array([0, 2])].add(5.0)   # feed one result into the next
print("original:", x)
print("set:     ", y)
print("add:     ", z)
print("chained: ", chained)

# NumPy-style assignment is refused; rebinding a name is not mutation.
try:
    x[1] = 20.0
    refused = False
except TypeError as err:
    refused = True
    print("x[1] = 20.0 -> TypeError:", str(err).split(".")[0])
current = x
current = current.at[1].set(20.0)             # moves the name `current`; x keeps the old value
print("rebound name:", current, "| x:", x)

# A repeated index: .at[idx].add applies every contribution, like an explicit integer loop.
indices = jnp.array([1, 1, 3])
contributions = jnp.array([2, 3, 7], dtype=jnp.int32)
counts = jnp.zeros(4, dtype=jnp.int32).at[indices].add(contributions)
reference = np.zeros(4, dtype=np.int32)
for index, contribution in zip([1, 1, 3], [2, 3, 7]):
    reference[index] += contribution
print("repeated-index add:", counts, "| loop reference:", reference)

assert refused
assert jnp.array_equal(original, jnp.array([1.0, 2.0, 3.0, 4.0])), "the old value must be unchanged"
assert jnp.array_equal(y, jnp.array([1.0, 20.0, 3.0, 4.0]))
assert jnp.array_equal(z, jnp.array([6.0, 2.0, 8.0, 4.0]))               # index 1 is still 2
assert jnp.array_equal(chained, jnp.array([6.0, 20.0, 8.0, 4.0]))
assert jnp.array_equal(current, y) and current is not x and x is original
assert y.shape == z.shape == original.shape and y.dtype == z.dtype == original.dtype
assert counts.dtype == jnp.int32 and jnp.array_equal(counts, reference)   # [0, 5, 0, 7]
print("PASS: arrays-04")
