# replaces: practice-solution
# fails: practice-test
def ema_filter(xs, alpha):
    # Converts alpha to a Python float: fine eagerly, a ConcretizationTypeError under jit or vmap.
    a = float(alpha)

    def step(previous, x):
        y = a * x + (1.0 - a) * previous
        return y, y

    _, ys = jax.lax.scan(step, jnp.zeros_like(xs[0]), xs)
    return ys
