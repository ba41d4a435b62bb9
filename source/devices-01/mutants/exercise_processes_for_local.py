# replaces: exercise-solution
# fails: exercise-test
def device_facts():
    # Confuses "local" with "processes": counts processes, not this process's devices.
    return {
        "backend": jax.default_backend(),
        "device_count": jax.device_count(),
        "local_device_count": jax.process_count(),
        "device_ids": [device.id for device in jax.devices()],
        "default_device_id": jnp.zeros(()).device.id,
    }
