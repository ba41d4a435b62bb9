# replaces: transfer-solution
# fails: transfer-test
# Counts the untimed first batch's tokens as well.
def tokens_per_second(step, batches, timer=time.perf_counter):
    """Training throughput: step(inputs, targets) on batches[0], waited for and not timed (it compiles), then
    on the rest, timed from one timer() reading before the first to one after the last loss is ready."""
    jax.block_until_ready(step(*batches[0]))
    start = timer()
    for inputs, targets in batches[1:]:
        loss = step(inputs, targets)
    jax.block_until_ready(loss)
    return sum(inputs.size for inputs, _ in batches) / (timer() - start)
