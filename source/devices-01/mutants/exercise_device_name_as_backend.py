# replaces: exercise-solution
# fails: exercise-test
def device_facts():
    # Reports the first device's printed name ("TFRT_CPU_0") instead of the backend ("cpu").
    return {
        "backend": str(jax.devices()[0]),
        "device_count": jax.device_count(),
        "local_device_count": jax.local_device_count(),
        "device_ids": [device.id for device in jax.devices()],
        "default_device_id": jnp.zeros(()).device.id,
    }
