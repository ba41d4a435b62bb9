# replaces: exercise-solution
# fails: exercise-test
def first_bad_step(losses):
    # -1.0 instead of -1: the result becomes a float array.
    bad = ~jnp.isfinite(losses)
    return jnp.where(jnp.any(bad), jnp.argmax(bad), -1.0)
