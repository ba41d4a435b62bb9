# replaces: exercise-solution
# fails: exercise-test
def benchmark(fn, args, repeats, timer=time.perf_counter):
    # Warms up without timing, then reports the first STEADY call as "first": the compile is lost.
    jax.block_until_ready(fn(*args))
    steady = []
    for _ in range(repeats):
        start = timer()
        jax.block_until_ready(fn(*args))
        steady.append(timer() - start)
    return steady[0], steady
