# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # No constant-feature policy: a constant feature keeps scale 0, so applying divides by zero.
    train = jnp.asarray(train)
    return train.mean(axis=0), train.std(axis=0)
