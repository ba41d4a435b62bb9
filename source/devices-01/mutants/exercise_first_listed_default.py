# replaces: exercise-solution
# fails: exercise-test
def device_facts():
    # Takes the first listed device as the default one: right until jax.default_device picks another.
    return {
        "backend": jax.default_backend(),
        "device_count": jax.device_count(),
        "local_device_count": jax.local_device_count(),
        "device_ids": [device.id for device in jax.devices()],
        "default_device_id": jax.devices()[0].id,
    }
