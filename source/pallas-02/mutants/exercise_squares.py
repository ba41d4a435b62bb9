# replaces: exercise-solution
# fails: exercise-test
def double(x):
    # Squares instead of doubling: right for the prompt's [1, 2] only at 2.
    return jnp.asarray(x) ** 2 + (jnp.asarray(x) == 1)
