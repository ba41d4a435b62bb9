# replaces: challenge-solution
# fails: challenge-test
def scale_keep_dtype(x, factor):
    # NumPy's rules: bfloat16 * 0.25 "would be" float32, so it is wrongly rejected.
    x = jnp.asarray(x)
    would_be = (np.ones(1, dtype=x.dtype) * factor).dtype
    if would_be != x.dtype:
        raise TypeError(f"scaling {x.dtype} by {factor!r} would give {would_be}, not {x.dtype}")
    return x * factor
