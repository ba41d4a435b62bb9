# replaces: challenge-solution
# fails: challenge-test
def scan_with_log(step, init, xs, log):
    # A Python append in the body: scan traces the body once, so log gets one tracer, not one value per step.
    def body(carry, x):
        carry, y = step(carry, x)
        log.append(y)
        return carry, y

    return jax.lax.scan(body, init, xs)
