# replaces: challenge-solution
# fails: challenge-test
def scan_with_log(step, init, xs, log):
    # Records the new carry instead of the step's output y.
    def body(carry, x):
        carry, y = step(carry, x)
        jax.debug.callback(lambda v: log.append(np.asarray(v)), carry, ordered=True)
        return carry, y

    return jax.lax.scan(body, init, xs)
