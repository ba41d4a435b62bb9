# replaces: challenge-solution
# fails: challenge-test
def build_from_callback(load_rows, sharding, global_shape):
    # Uses the callback, but every call loads all rows and cuts its shard out afterwards.
    return jax.make_array_from_callback(tuple(global_shape), sharding,
                                        lambda index: load_rows(0, global_shape[0])[index])
