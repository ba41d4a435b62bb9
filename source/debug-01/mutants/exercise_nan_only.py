# replaces: exercise-solution
# fails: exercise-test
def first_bad_step(losses):
    # Looks for NaN only: an inf (or -inf) loss is not counted, so the answer comes too late.
    bad = jnp.isnan(losses)
    return jnp.where(jnp.any(bad), jnp.argmax(bad), -1)
