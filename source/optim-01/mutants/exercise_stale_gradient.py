# replaces: exercise-solution
# fails: exercise-test
def gd(loss, x0, lr, num_steps):
    # Computes the gradient once, at x0, and reuses it for every step: a straight line, not
    # gradient descent. Right for the first step only.
    x0 = jnp.asarray(x0)
    g0 = jax.grad(loss)(x0)

    def step(x, _):
        x_new = x - lr * g0
        return x_new, x_new

    _, later = jax.lax.scan(step, x0, None, length=num_steps)
    return jnp.concatenate([x0[None], later])
