# replaces: exercise-solution
# fails: exercise-test
def masked_sum(x, threshold):
    # >= keeps the entries equal to the threshold, which "strictly greater" excludes.
    return jnp.sum(jnp.where(x >= threshold, x, 0))
