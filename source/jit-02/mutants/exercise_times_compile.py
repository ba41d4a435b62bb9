# replaces: exercise-solution
# fails: exercise-test
def benchmark(fn, args, repeats, timer=time.perf_counter):
    # No separate warm-up: the first (compiling) call is timed as one of the steady repeats.
    steady = []
    for _ in range(repeats):
        start = timer()
        jax.block_until_ready(fn(*args))
        steady.append(timer() - start)
    return steady[0], steady
