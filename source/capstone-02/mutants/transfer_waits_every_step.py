# replaces: transfer-solution
# fails: transfer-test
# Waits after every step: the device idles while Python dispatches the next one.
def tokens_per_second(step, batches, timer=time.perf_counter):
    """Training throughput: step(inputs, targets) on batches[0], waited for and not timed (it compiles), then
    on the rest, timed from one timer() reading before the first to one after the last loss is ready."""
    jax.block_until_ready(step(*batches[0]))
    start = timer()
    for inputs, targets in batches[1:]:
        jax.block_until_ready(step(inputs, targets))
    return sum(inputs.size for inputs, _ in batches[1:]) / (timer() - start)
