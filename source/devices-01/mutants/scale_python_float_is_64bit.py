# replaces: challenge-solution
# fails: challenge-test
def scale_keep_dtype(x, factor):
    # Believes a Python float is float64, so float32 * 0.5 "would be" float64 and is rejected.
    x = jnp.asarray(x)
    factor_dtype = factor.dtype if hasattr(factor, "dtype") else np.dtype(type(factor))
    would_be = jnp.promote_types(x.dtype, factor_dtype)
    if would_be != x.dtype:
        raise TypeError(f"scaling {x.dtype} by {factor!r} would give {would_be}, not {x.dtype}")
    return x * factor
