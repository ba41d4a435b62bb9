# replaces: transfer-solution
# fails: transfer-test
def float32_increment(large, small):
    # Treats any change below 1e-6 as rounding noise and reports 0.0. But 1 + 2**-22 is a
    # different float32 from 1: that increment (about 2.4e-7) is real, and float32 kept it.
    large32 = jnp.float32(large)
    small32 = jnp.float32(small)
    change = float((large32 + small32) - large32)
    return 0.0 if abs(change) < 1e-6 else change
