# replaces: challenge-solution
# fails: challenge-test
def scale_keep_dtype(x, factor):
    # Never checks: int32 * 0.5 silently becomes float32.
    return jnp.asarray(x) * factor
