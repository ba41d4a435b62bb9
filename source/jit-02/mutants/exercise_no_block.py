# replaces: exercise-solution
# fails: exercise-test
def benchmark(fn, args, repeats, timer=time.perf_counter):
    # Never waits for the results: every timing is the dispatch only.
    start = timer()
    fn(*args)
    first = timer() - start
    steady = []
    for _ in range(repeats):
        start = timer()
        fn(*args)
        steady.append(timer() - start)
    return first, steady
