# replaces: exercise-solution
# fails: exercise-test
def device_facts():
    # Reports the global device count as the local one: equal on one machine, not across processes.
    return {
        "backend": jax.default_backend(),
        "device_count": jax.device_count(),
        "local_device_count": jax.device_count(),
        "device_ids": [device.id for device in jax.devices()],
        "default_device_id": jnp.zeros(()).device.id,
    }
