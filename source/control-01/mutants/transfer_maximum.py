# replaces: transfer-solution
# fails: transfer-test
def safe_sqrt_relu(x):
    # Clamps with maximum: sqrt still sees 0, so the gradient is NaN for x < 0 and inf at 0.
    return jnp.sqrt(jnp.maximum(x, 0.0))
