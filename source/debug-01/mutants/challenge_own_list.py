# replaces: challenge-solution
# fails: challenge-test
step_log = []


def scan_with_log(step, init, xs, log):
    # Appends to a list of its own instead of the caller's `log`.
    def body(carry, x):
        carry, y = step(carry, x)
        jax.debug.callback(lambda v: step_log.append(np.asarray(v)), y, ordered=True)
        return carry, y

    return jax.lax.scan(body, init, xs)
