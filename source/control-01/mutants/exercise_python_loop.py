# replaces: exercise-solution
# fails: exercise-test
def running_mean(xs):
    # A Python loop: the right numbers, but jit unrolls it into one copy per row; no scan.
    total = jnp.zeros_like(xs[0])
    means = []
    for t in range(xs.shape[0]):
        total = total + xs[t]
        means.append(total / (t + 1))
    return jnp.stack(means)
