# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # Detects constant features with std == 0: misses a constant 0.1 feature, whose float32
    # standard deviation rounds to 7.45e-9 in JAX on the CPU.
    train = jnp.asarray(train)
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    scale = jnp.where(std == 0, 1.0, std)
    return mean, scale
