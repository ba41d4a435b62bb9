# replaces: practice-solution
# fails: practice-test
def build_global_array(local_data, sharding, global_shape):
    # Checks the shape by hand, then device_put: passes every single-process check, but in two
    # processes each one holds only its own rows, which never match the global shape.
    if tuple(np.shape(local_data)) != tuple(global_shape):
        raise ValueError(f"expected {global_shape}, got {np.shape(local_data)}")
    return jax.device_put(local_data, sharding)
