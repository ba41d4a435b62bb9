# replaces: challenge-solution
# fails: challenge-test
def hvp(f, x, v):
    # A first derivative only: the directional derivative of f, grad(f) . v, broadcast to x's shape.
    return jnp.zeros_like(x) + jax.jvp(f, (x,), (v,))[1]
