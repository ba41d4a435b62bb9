# replaces: exercise-solution
# fails: exercise-test
def running_mean(xs):
    # Vectorized with cumsum: correct values, but not the scan the exercise asks for.
    counts = jnp.arange(1, xs.shape[0] + 1).reshape((-1,) + (1,) * (xs.ndim - 1))
    return jnp.cumsum(xs, axis=0) / counts
