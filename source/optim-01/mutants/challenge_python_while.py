# replaces: challenge-solution
# fails: challenge-test
def steps_to_tol(loss, x0, lr, tol, max_steps):
    # A Python while: right eagerly, but under jit and vmap the condition needs a concrete
    # value and raises a concretization error.
    grad = jax.grad(loss)
    x, k = jnp.asarray(x0), 0
    while k < max_steps and not (jnp.linalg.norm(grad(x)) <= tol):
        x, k = x - lr * grad(x), k + 1
    return jnp.int32(k)
