# replaces: practice-solution
# fails: practice-test
def build_global_array(local_data, sharding, global_shape):
    # device_put of this process's rows: the same thing in one process, an AssertionError in two
    # (device_put takes its input as the WHOLE array, and the processes' inputs differ).
    return jax.device_put(local_data, sharding)
