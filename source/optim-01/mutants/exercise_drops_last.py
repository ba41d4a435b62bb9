# replaces: exercise-solution
# fails: exercise-test
def gd(loss, x0, lr, num_steps):
    # Emits the OLD point at every step: rows x_0 .. x_{n-1}, the final point is missing.
    grad = jax.grad(loss)

    def step(x, _):
        return x - lr * grad(x), x

    _, rows = jax.lax.scan(step, jnp.asarray(x0), None, length=num_steps)
    return rows
