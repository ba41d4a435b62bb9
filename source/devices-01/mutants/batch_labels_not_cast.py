# replaces: transfer-solution
# fails: transfer-test
def load_batch(batch, device):
    # Leaves the labels' dtype to JAX: int32 only while 64-bit mode is off.
    images = jax.device_put(batch["images"], device)
    labels = jax.device_put(batch["labels"], device)
    return {"images": images.astype(jnp.float32) / 255.0, "labels": labels}
