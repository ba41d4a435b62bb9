# replaces: exercise-solution
# fails: exercise-test
def first_bad_step(losses):
    # Answers len(losses) ("one past the end") instead of -1 when every value is finite.
    bad = ~jnp.isfinite(losses)
    return jnp.where(jnp.any(bad), jnp.argmax(bad), losses.shape[0])
