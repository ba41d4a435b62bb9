# replaces: exercise-solution
# fails: exercise-test
def gd(loss, x0, lr, num_steps):
    # Gradient ASCENT: adds lr * gradient, so every step goes uphill.
    grad = jax.grad(loss)

    def step(x, _):
        x_new = x + lr * grad(x)
        return x_new, x_new

    x0 = jnp.asarray(x0)
    _, later = jax.lax.scan(step, x0, None, length=num_steps)
    return jnp.concatenate([x0[None], later])
