# replaces: transfer-solution
# fails: transfer-test
def straight_through_round(x):
    # Stops the wrong term: the value is round(x), but the derivative is -1 instead of 1.
    return jax.lax.stop_gradient(x) + jnp.round(x) - x
