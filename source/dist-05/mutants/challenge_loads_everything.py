# replaces: challenge-solution
# fails: challenge-test
def build_from_callback(load_rows, sharding, global_shape):
    # Loads the whole data set, then places it: every process would read every row.
    return jax.device_put(load_rows(0, global_shape[0]), sharding)
