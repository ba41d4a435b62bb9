# replaces: challenge-solution
# fails: challenge-test
def scale_keep_dtype(x, factor):
    # Compares the factor's own dtype: jnp.asarray(2.0) is float32, so float16 * 2.0 is
    # rejected although JAX keeps float16.
    x = jnp.asarray(x)
    factor_dtype = jnp.asarray(factor).dtype
    if jnp.promote_types(x.dtype, factor_dtype) != x.dtype:
        raise TypeError(f"scaling {x.dtype} by {factor!r} would give {factor_dtype}, not {x.dtype}")
    return x * factor
