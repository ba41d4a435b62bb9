# replaces: exercise-solution
# fails: exercise-test
def first_bad_step(losses):
    # Finds the LAST non-finite step (argmax of the reversed mask), not the first.
    bad = ~jnp.isfinite(losses)
    last = losses.shape[0] - 1 - jnp.argmax(bad[::-1])
    return jnp.where(jnp.any(bad), last, -1)
