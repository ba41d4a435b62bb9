# replaces: exercise-solution
# fails: exercise-test
def zero_tail(values, count):
    # A NumPy detour: copy to a host array, assign in place, convert back. Right values eagerly,
    # but np.array cannot read a traced array, so it fails inside jax.jit.
    host = np.array(values)
    host[host.shape[0] - count:] = 0
    return jnp.asarray(host)
