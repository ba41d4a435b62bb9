# replaces: exercise-solution
# fails: exercise-test
def running_mean(xs):
    # Off by one: divides the sum of t + 1 rows by t (guarded against t = 0).
    def step(total, indexed):
        t, x = indexed
        total = total + x
        return total, total / jnp.maximum(t, 1)

    _, means = jax.lax.scan(step, jnp.zeros_like(xs[0]), (jnp.arange(xs.shape[0]), xs))
    return means
