# replaces: exercise-solution
# fails: exercise-test
def running_mean(xs):
    # Averages each row with the previous mean: a moving average that forgets, not the mean so far.
    def step(mean, x):
        mean = (mean + x) / 2.0
        return mean, mean

    first = xs[0]
    _, rest = jax.lax.scan(step, first, xs[1:])
    return jnp.concatenate([first[None], rest], axis=0)
