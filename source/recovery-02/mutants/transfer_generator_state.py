# replaces: transfer-solution
# fails: transfer-test
_host_loaders = {}


def host_batch_for_step(seed, step, n, batch_size):
    # One NumPy generator per run, kept between calls and advanced once per epoch: loader state again,
    # so the rows depend on the calls made before, not on the step.
    steps_per_epoch = n // batch_size
    loader = _host_loaders.setdefault((seed, n, batch_size), {"rng": np.random.default_rng(seed), "calls": 0})
    if loader["calls"] % steps_per_epoch == 0:
        loader["order"] = loader["rng"].permutation(n)
    position = loader["calls"] % steps_per_epoch
    loader["calls"] += 1
    return loader["order"][position * batch_size:(position + 1) * batch_size]
