# replaces: challenge-solution
# fails: challenge-test
def scan_with_log(step, init, xs, log):
    # An unordered callback: the values arrive, but nothing guarantees their order.
    def body(carry, x):
        carry, y = step(carry, x)
        jax.debug.callback(lambda v: log.append(np.asarray(v)), y)
        return carry, y

    return jax.lax.scan(body, init, xs)
