# replaces: transfer-solution
# fails: transfer-test
# Starts the clock before the first call: the compilation counts as training time.
def tokens_per_second(step, batches, timer=time.perf_counter):
    """Training throughput: step(inputs, targets) on batches[0], waited for and not timed (it compiles), then
    on the rest, timed from one timer() reading before the first to one after the last loss is ready."""
    start = timer()
    for inputs, targets in batches:
        loss = step(inputs, targets)
    jax.block_until_ready(loss)
    return sum(inputs.size for inputs, _ in batches[1:]) / (timer() - start)
