# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # Sample standard deviation (divides by N - 1); the lesson fixes ddof=0.
    train = jnp.asarray(train)
    mean = train.mean(axis=0)
    std = train.std(axis=0, ddof=1)
    is_constant = train.max(axis=0) == train.min(axis=0)
    scale = jnp.where(is_constant, 1.0, std)
    return mean, scale
