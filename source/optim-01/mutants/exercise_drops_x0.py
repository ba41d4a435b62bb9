# replaces: exercise-solution
# fails: exercise-test
def gd(loss, x0, lr, num_steps):
    # Emits the NEW point at every step and returns only those rows: x_1 .. x_n, x0 is lost
    # (num_steps rows instead of num_steps + 1).
    grad = jax.grad(loss)

    def step(x, _):
        x_new = x - lr * grad(x)
        return x_new, x_new

    _, later = jax.lax.scan(step, jnp.asarray(x0), None, length=num_steps)
    return later
