# replaces: exercise-solution
# fails: exercise-test
def device_facts():
    # Assumes a single device instead of asking JAX.
    return {
        "backend": jax.default_backend(),
        "device_count": 1,
        "local_device_count": 1,
        "device_ids": [0],
        "default_device_id": 0,
    }
