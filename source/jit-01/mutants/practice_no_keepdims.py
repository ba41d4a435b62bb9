# replaces: practice-solution
# fails: practice-test
def normalize(x, ord):
    # Without keepdims the (n,) norms broadcast against the last axis: an (n, d) batch fails,
    # and a square one divides each column by the row norms.
    if ord == 1:
        norm = jnp.sum(jnp.abs(x), axis=-1)
    elif ord == 2:
        norm = jnp.sqrt(jnp.sum(x * x, axis=-1))
    elif ord == "max":
        norm = jnp.max(jnp.abs(x), axis=-1)
    else:
        raise ValueError(f"ord must be 1, 2 or 'max'; got {ord!r}")
    return x / norm


normalize = jax.jit(normalize, static_argnames="ord")
