# Lesson pytrees-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/pytrees-01.py (or tpu, or gpu); it ends PASS: pytrees-01

import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a plain `python` run uses the CPU

import jax
import jax.numpy as jnp
import numpy as np
from jax.flatten_util import ravel_pytree

params = {
    "hidden": {"w": jnp.array([[1.0, -1.0], [2.0, 0.0], [-1.0, 3.0]]), "b": jnp.array([0.0, 2.0])},
    "out": {"w": jnp.array([[2.0], [0.0]]), "b": jnp.array([1.0])},
}
x = jnp.array([[1.0, 0.0, 2.0], [0.0, 1.0, -1.0], [2.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
y = jnp.array([[0.0], [6.0], [8.0], [4.0]])


@jax.jit
def mlp(params, x):
    hidden = jax.nn.relu(jnp.dot(x, params["hidden"]["w"], precision="highest") + params["hidden"]["b"])
    return jnp.dot(hidden, params["out"]["w"], precision="highest") + params["out"]["b"]


@jax.jit
def loss(params, x, y):
    return jnp.mean((mlp(params, x) - y) ** 2)


grads = jax.grad(loss)(params, x, y)
new_params = jax.tree.map(lambda p, g: p - 0.02 * g, params, grads)

leaves, treedef = jax.tree.flatten(params)
flat, unravel = ravel_pytree(params)
global_norm = jnp.sqrt(jnp.sum(flat ** 2))
sum_of_leaf_norms = sum(np.linalg.norm(leaf) for leaf in leaves)

print("treedef:", treedef)
print("leaf shapes:", [leaf.shape for leaf in leaves])
print("leaves:", len(leaves), "| scalars:", flat.size)
print("global norm:", float(global_norm), "| sum of leaf norms:", float(sum_of_leaf_norms))
print(f"loss before: {float(loss(params, x, y)):.4f} | after one SGD step: {float(loss(new_params, x, y)):.4f}")

assert jax.tree.structure(grads) == treedef and jax.tree.structure(new_params) == treedef
assert [leaf.shape for leaf in leaves] == [(2,), (3, 2), (1,), (2, 1)]
assert len(leaves) == 4 and flat.size == 11
assert np.isclose(float(global_norm), 5.0, rtol=1e-6, atol=0.0) and float(sum_of_leaf_norms) == 9.0
assert float(loss(new_params, x, y)) < float(loss(params, x, y)) == 1.0
assert all(jax.tree.leaves(jax.tree.map(np.array_equal, unravel(flat), params)))
print("PASS: pytrees-01")
