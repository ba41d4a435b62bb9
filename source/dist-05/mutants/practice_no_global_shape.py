# replaces: practice-solution
# fails: practice-test
def build_global_array(local_data, sharding, global_shape):
    # Drops global_shape: JAX infers the shape from the rows it gets, so too few rows make a
    # smaller batch instead of an error.
    return jax.make_array_from_process_local_data(sharding, local_data)
