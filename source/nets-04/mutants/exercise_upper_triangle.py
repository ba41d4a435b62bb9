# replaces: exercise-solution
# fails: exercise-test, challenge-test
def causal_mask(t):
    # The upper triangle: query i sees keys i ... t - 1, the future instead of the past.
    return jnp.triu(jnp.ones((t, t), dtype=bool))
