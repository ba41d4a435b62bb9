# replaces: transfer-solution
# fails: transfer-test
# Stops the clock when the last step is dispatched, not when it is done.
def tokens_per_second(step, batches, timer=time.perf_counter):
    """Training throughput: step(inputs, targets) on batches[0], waited for and not timed (it compiles), then
    on the rest, timed from one timer() reading before the first to one after the last loss is ready."""
    jax.block_until_ready(step(*batches[0]))
    start = timer()
    for inputs, targets in batches[1:]:
        step(inputs, targets)
    return sum(inputs.size for inputs, _ in batches[1:]) / (timer() - start)
