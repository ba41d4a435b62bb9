# replaces: challenge-solution
# fails: challenge-test
@jax.custom_jvp
def safe_norm(x):
    """sqrt(sum(x ** 2)) over all entries of x; a scalar."""
    return jnp.sqrt(jnp.sum(x ** 2))


@safe_norm.defjvp
def safe_norm_jvp(primals, tangents):
    """Return (safe_norm(x), the derivative along dx): x / |x| . dx for x != 0, and 0 at x = 0."""
    (x,), (dx,) = primals, tangents
    # Safe at zero, but the coefficient is x instead of x / |x|: the gradient is |x| times too large.
    return safe_norm(x), jnp.sum(x * dx)
