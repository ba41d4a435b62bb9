# replaces: practice-solution
# fails: practice-test
def ema_filter(xs, alpha):
    # Starts the filter at the first reading (y_-1 = x_0) instead of at zero.
    def step(previous, x):
        y = alpha * x + (1.0 - alpha) * previous
        return y, y

    _, ys = jax.lax.scan(step, xs[0], xs)
    return ys
