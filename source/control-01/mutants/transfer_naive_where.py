# replaces: transfer-solution
# fails: transfer-test
def safe_sqrt_relu(x):
    # One where after the sqrt: right values, NaN gradient for x <= 0 (0 times an infinite slope).
    return jnp.where(x > 0, jnp.sqrt(x), 0.0)
