# replaces: challenge-solution
# fails: challenge-test
# io_callback without ordered=True: logs every step, in order on this backend, but nothing in the
# program promises that order (no token is threaded through it).
from jax.experimental import io_callback


def scan_with_log(step, init, xs, log):
    def record(y):
        log.append(np.asarray(y))

    def body(carry, x):
        carry, y = step(carry, x)
        io_callback(record, None, y)
        return carry, y

    return jax.lax.scan(body, init, xs)
