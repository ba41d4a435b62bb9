# Lesson autodiff-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/autodiff-02.py (or tpu, or gpu); it ends PASS: autodiff-02

# Jacobians, JVPs and VJPs: J, J v and u J for f(x) = (x0 x1, 3 x0 - x1, x1^2) at x = (2, 3).
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a plain `python` run uses the CPU

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x):
    return jnp.stack([x[0] * x[1], 3.0 * x[0] - x[1], x[1] ** 2])


x = jnp.array([2.0, 3.0])        # input point
v = jnp.array([1.0, -1.0])       # input direction
u = jnp.array([1.0, 0.0, 2.0])   # output weighting

J = jax.jacfwd(f)(x)
y, Jv = jax.jvp(f, (x,), (v,))
_, pullback = jax.vjp(f, x)
(uJ,) = pullback(u)
print("f(x) =", y.tolist())
print("J    =", J.tolist(), "shape", J.shape)
print("J v  =", Jv.tolist())
print("u J  =", uJ.tolist())

assert J.shape == f(x).shape + x.shape == (3, 2)
assert np.array_equal(J, jax.jacrev(f)(x))
assert np.array_equal(J, [[3.0, 2.0], [3.0, -1.0], [0.0, 6.0]])
assert np.array_equal(Jv, [1.0, 4.0, -6.0])
assert np.array_equal(uJ, [3.0, 14.0])
print("PASS: autodiff-02")
