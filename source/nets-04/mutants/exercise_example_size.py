# replaces: exercise-solution
# fails: exercise-test, challenge-test
def causal_mask(t):
    # The 4 x 4 mask of the prompt's example, whatever t is.
    return jnp.tril(jnp.ones((4, 4), dtype=bool))
