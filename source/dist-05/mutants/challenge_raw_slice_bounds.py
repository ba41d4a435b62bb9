# replaces: challenge-solution
# fails: challenge-test
def build_from_callback(load_rows, sharding, global_shape):
    # Reads index[0].start / .stop directly: a shard that holds all rows has slice(None, None),
    # so load_rows gets None instead of numbers.
    return jax.make_array_from_callback(tuple(global_shape), sharding,
                                        lambda index: load_rows(index[0].start, index[0].stop))
