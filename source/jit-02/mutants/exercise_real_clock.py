# replaces: exercise-solution
# fails: exercise-test
def benchmark(fn, args, repeats, timer=time.perf_counter):
    # Right logic, but reads time.perf_counter() directly: the clock it was given is ignored.
    start = time.perf_counter()
    jax.block_until_ready(fn(*args))
    first = time.perf_counter() - start
    steady = []
    for _ in range(repeats):
        start = time.perf_counter()
        jax.block_until_ready(fn(*args))
        steady.append(time.perf_counter() - start)
    return first, steady
