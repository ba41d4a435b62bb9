# replaces: practice-solution
# fails: practice-test
def normalize(x, ord):
    if ord == 1:
        norm = jnp.sum(jnp.abs(x), axis=-1, keepdims=True)
    elif ord == 2:
        norm = jnp.sqrt(jnp.sum(x * x, axis=-1, keepdims=True))
    elif ord == "max":
        norm = jnp.max(jnp.abs(x), axis=-1, keepdims=True)
    else:
        raise ValueError(f"ord must be 1, 2 or 'max'; got {ord!r}")
    return x / norm


# No static argument: ord arrives as a tracer (the `if` fails) or, for "max", cannot be traced at all.
normalize = jax.jit(normalize)
