# replaces: exercise-solution
# fails: exercise-test
def first_bad_step(losses):
    # Plain argmax of the mask: 0 when nothing is bad, the same answer as "step 0 was bad".
    return jnp.argmax(~jnp.isfinite(losses))
