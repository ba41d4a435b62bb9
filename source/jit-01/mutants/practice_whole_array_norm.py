# replaces: practice-solution
# fails: practice-test
def normalize(x, ord):
    # Divides by one norm of the whole array instead of one per row: right for a vector only.
    if ord == 1:
        norm = jnp.sum(jnp.abs(x))
    elif ord == 2:
        norm = jnp.sqrt(jnp.sum(x * x))
    elif ord == "max":
        norm = jnp.max(jnp.abs(x))
    else:
        raise ValueError(f"ord must be 1, 2 or 'max'; got {ord!r}")
    return x / norm


normalize = jax.jit(normalize, static_argnames="ord")
