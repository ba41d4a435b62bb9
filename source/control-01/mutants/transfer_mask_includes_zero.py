# replaces: transfer-solution
# fails: transfer-test
def safe_sqrt_relu(x):
    # Double where, but the mask x >= 0 lets x = 0 reach sqrt: the gradient there is inf.
    keep = x >= 0
    safe_x = jnp.where(keep, x, 1.0)
    return jnp.where(keep, jnp.sqrt(safe_x), 0.0)
