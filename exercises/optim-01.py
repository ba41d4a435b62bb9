# Lesson optim-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/optim-01.py (or tpu, or gpu); it ends PASS: optim-01

# Gradient descent by hand: on f(x) = 0.5 x^T A x every step multiplies the error along an
# eigenvector of A by (1 - lr * lambda), so lr < 2 / lambda_max decides convergence.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins

import jax
import jax.numpy as jnp
import numpy as np

A = jnp.array([[5.5, 4.5], [4.5, 5.5]])          # eigenvalues 1 and 10
x0 = jnp.array([-3.0, 1.0])


def f(x):
    Ax = jnp.dot(A, x, precision="highest")
    return 0.5 * jnp.dot(x, Ax, precision="highest")


grad_f = jax.grad(f)


def descend(x, lr):
    """One step: the new point, and metrics of the point we started from."""
    g = grad_f(x)
    return x - lr * g, {"loss": f(x), "grad_norm": jnp.linalg.norm(g)}


def run(lr, num_steps):
    return jax.lax.scan(lambda x, _: descend(x, lr), x0, None, length=num_steps)


run = jax.jit(run, static_argnames="num_steps")
eigenvalues, eigenvectors = (np.asarray(a, dtype=np.float64) for a in jnp.linalg.eigh(A))
lam_min, lam_max = eigenvalues[0], eigenvalues[-1]
limit = 2 / lam_max
print(f"eigenvalues {lam_min:.4f}, {lam_max:.4f} | limit 2/lam_max = {limit:.4f} | kappa = {lam_max / lam_min:.2f}")

coords0 = eigenvectors.T @ np.asarray(x0, dtype=np.float64)      # x0 along the eigenvectors
for lr in (0.1, 2 / 11, 0.19, 0.21):
    x_final, metrics = run(lr, 100)
    losses, norms = np.asarray(metrics["loss"]), np.asarray(metrics["grad_norm"])
    factors = 1.0 - lr * eigenvalues                 # per-step factor along each eigenvector
    predicted = eigenvectors @ (coords0 * factors ** 100)
    hits = np.nonzero(norms <= 1e-3)[0]               # steps k with |grad f(x_k)| <= 1e-3
    first = int(hits[0]) if hits.size else "none in 100"
    print(f"lr = {lr:.4f}: factors {factors[0]:+.3f} (shallow), {factors[1]:+.3f} (steep) | "
          f"loss {losses[0]:.3g} -> {losses[-1]:.3g} | first k with |grad| <= 1e-3: {first}")
    assert np.allclose(np.asarray(x_final), predicted, rtol=1e-3, atol=1e-5)
    if lr < limit:
        assert np.all(np.diff(losses) <= 0) and losses[-1] < 1e-4
    else:
        assert losses[-1] > losses[0]
print("PASS: optim-01")
