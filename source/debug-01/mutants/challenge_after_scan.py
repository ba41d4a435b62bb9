# replaces: challenge-solution
# fails: challenge-test
def scan_with_log(step, init, xs, log):
    # Copies ys to the host after the loop: fine eagerly, but under jax.jit ys is a tracer.
    carry, ys = jax.lax.scan(step, init, xs)
    log.extend(np.asarray(y) for y in ys)
    return carry, ys
