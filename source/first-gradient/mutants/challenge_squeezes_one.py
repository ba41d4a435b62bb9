# replaces: challenge-solution
# fails: challenge-test
def checked_grad(function, x):
    # Checks the SIZE instead of the shape: a (1,) output is squeezed to () and accepted.
    x = jnp.asarray(x)
    if jnp.issubdtype(x.dtype, jnp.integer):
        x = x.astype(jnp.float32)
    shape = jax.eval_shape(function, x).shape
    if int(np.prod(shape)) != 1:
        raise TypeError(f"output must be a single number; got shape {shape}")
    return jax.grad(lambda v: jnp.reshape(function(v), ()))(x)
