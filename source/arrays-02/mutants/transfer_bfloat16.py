# replaces: transfer-solution
# fails: transfer-test
def float32_increment(large, small):
    # Stores the values as bfloat16 (8 significant bits) instead of float32 (24 bits).
    large16 = jnp.asarray(large, dtype=jnp.bfloat16)
    small16 = jnp.asarray(small, dtype=jnp.bfloat16)
    return float((large16 + small16) - large16)
