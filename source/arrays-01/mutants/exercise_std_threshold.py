# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # "Fixes" std == 0 with a tolerance: any feature whose std is below 1e-6 counts as constant.
    # That is a threshold, not the lesson's policy: a feature with a tiny but real spread
    # (std 2**-22, about 2.4e-7) loses its scale, on every platform.
    train = jnp.asarray(train)
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    scale = jnp.where(std < 1e-6, 1.0, std)
    return mean, scale
