# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # Adds epsilon to every scale instead of the lesson's policy: a constant feature gets 1e-6.
    train = jnp.asarray(train)
    return train.mean(axis=0), train.std(axis=0) + 1e-6
