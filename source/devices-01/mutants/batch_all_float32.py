# replaces: transfer-solution
# fails: transfer-test
def load_batch(batch, device):
    # Casts everything to float32, labels included.
    images = jax.device_put(batch["images"], device)
    labels = jax.device_put(batch["labels"], device)
    return {"images": images.astype(jnp.float32) / 255.0, "labels": labels.astype(jnp.float32)}
