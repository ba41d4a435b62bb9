# replaces: transfer-solution
# fails: transfer-test
def load_batch(batch, device):
    # Right dtypes and values, but always placed on the first device.
    first = jax.devices()[0]
    images = jax.device_put(batch["images"], first)
    labels = jax.device_put(batch["labels"].astype(np.int32), first)
    return {"images": images.astype(jnp.float32) / 255.0, "labels": labels}
