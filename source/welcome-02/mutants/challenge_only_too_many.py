# replaces: challenge-solution
# fails: challenge-test
def safe_reshape(values, rows, cols):
    # Checks only one direction: asking for fewer values than there are slips through
    # to JAX, which raises TypeError instead of ValueError.
    values = jnp.asarray(values)
    needed = rows * cols
    if needed > values.size:
        raise ValueError(
            f"cannot arrange {values.size} values as ({rows}, {cols}): that shape needs {needed}"
        )
    return values.reshape(rows, cols)
