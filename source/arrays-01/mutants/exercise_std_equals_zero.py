# replaces: exercise-solution
# fails: exercise-test
def fit_standardizer(train):
    # Detects constant features with std == 0, a statement about rounded arithmetic, not values.
    # On every platform it calls a varying feature constant when its squared deviations underflow
    # to 0 (values about 1e-25 apart); on the CPU it also misses a constant 0.1 feature, whose
    # float32 standard deviation rounds to 7.45e-9 in JAX.
    train = jnp.asarray(train)
    mean = train.mean(axis=0)
    std = train.std(axis=0)
    scale = jnp.where(std == 0, 1.0, std)
    return mean, scale
