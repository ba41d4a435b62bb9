# replaces: transfer-solution
# fails: transfer-test
def straight_through_round(x):
    # The right value, but jnp.round's derivative is 0: no gradient reaches x.
    return jnp.round(x)
