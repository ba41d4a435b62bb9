# replaces: practice-solution
# fails: practice-test
def ema_filter(xs, alpha):
    # Swaps alpha and 1 - alpha: invisible at alpha = 0.5, wrong everywhere else.
    def step(previous, x):
        y = (1.0 - alpha) * x + alpha * previous
        return y, y

    _, ys = jax.lax.scan(step, jnp.zeros_like(xs[0]), xs)
    return ys
