# replaces: challenge-solution
# fails: challenge-test
def checked_grad(function, x):
    # Silently chooses an objective: sums any non-scalar output instead of refusing it.
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.integer):
        x = x.astype(jnp.float32)
    return jax.grad(lambda v: jnp.sum(function(v)))(x)
