# replaces: transfer-solution
# fails: transfer-test
def masked_mean(padded, length):
    # Slices with the length: works eagerly, fails under jit, where the length is traced.
    return jnp.mean(padded[:length])
