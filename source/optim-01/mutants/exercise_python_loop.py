# replaces: exercise-solution
# fails: exercise-test
def gd(loss, x0, lr, num_steps):
    # Right numbers, but a Python loop: jit unrolls it into one copy of the step per iteration
    # (no scan in the jaxpr).
    grad = jax.grad(loss)
    rows = [jnp.asarray(x0)]
    for _ in range(num_steps):
        rows.append(rows[-1] - lr * grad(rows[-1]))
    return jnp.stack(rows)
