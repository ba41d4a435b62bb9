# replaces: challenge-solution
# fails: challenge-test
def scale_keep_dtype(x, factor):
    # Decides right, but the message always says float32, the example's product.
    x = jnp.asarray(x)
    if jnp.result_type(x, factor) != x.dtype:
        raise TypeError(f"scaling {x.dtype} by {factor!r} would give float32")
    return x * factor
