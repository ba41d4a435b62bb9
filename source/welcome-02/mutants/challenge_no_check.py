# replaces: challenge-solution
# fails: challenge-test
def safe_reshape(values, rows, cols):
    # No element count check: JAX's own TypeError escapes instead of a ValueError.
    return jnp.reshape(jnp.asarray(values), (rows, cols))
