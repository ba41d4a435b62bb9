# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # Wrong axis: one statistic per observation (row) instead of per feature.
    train = jnp.asarray(train)
    mean = train.mean(axis=1)
    std = train.std(axis=1)
    is_constant = train.max(axis=1) == train.min(axis=1)
    scale = jnp.where(is_constant, 1.0, std)
    return mean, scale
