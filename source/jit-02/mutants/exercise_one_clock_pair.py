# replaces: exercise-solution
# fails: exercise-test
def benchmark(fn, args, repeats, timer=time.perf_counter):
    # Times the first call on its own, but all steady calls with ONE pair of clock readings, and
    # reports their average as every repeat's timing: right only when every call costs the same.
    start = timer()
    jax.block_until_ready(fn(*args))
    first = timer() - start

    start = timer()
    for _ in range(repeats):
        jax.block_until_ready(fn(*args))
    total = timer() - start
    return first, [total / repeats] * repeats
