# replaces: exercise-solution
# fails: exercise-test
def causal_mask(t):
    # The right triangle, as float32 ones and zeros: jax.nn.dot_product_attention refuses a float mask.
    return jnp.tril(jnp.ones((t, t)))
