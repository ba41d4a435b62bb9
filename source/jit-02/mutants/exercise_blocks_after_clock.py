# replaces: exercise-solution
# fails: exercise-test
def benchmark(fn, args, repeats, timer=time.perf_counter):
    # Waits for every result, but only after the clock has stopped: still the dispatch time.
    times = []
    for _ in range(repeats + 1):
        start = timer()
        out = fn(*args)
        times.append(timer() - start)
        jax.block_until_ready(out)
    return times[0], times[1:]
