# replaces: practice-solution
# fails: practice-test
def set_last_column(matrix, value):
    # A NumPy detour: copy to a host array, assign the column in place, convert back. Right values
    # eagerly, but np.array cannot read a traced array, so it fails inside jax.jit.
    host = np.array(matrix)
    host[:, -1] = value
    return jnp.asarray(host)
