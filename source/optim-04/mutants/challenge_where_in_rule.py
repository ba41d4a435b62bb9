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
    # The where selects the JVP's value, so jax.jvp gives 0 at x = 0; but jax.grad transposes the
    # division, computes (cotangent) / 0 there, and returns nan.
    n = safe_norm(x)
    return n, jnp.where(n == 0, 0.0, jnp.sum(x * dx) / n)
