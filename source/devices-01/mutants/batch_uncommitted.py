# replaces: transfer-solution
# fails: transfer-test
def load_batch(batch, device):
    # Converts on the host and never names the device: default device, uncommitted.
    return {"images": jnp.asarray(batch["images"], dtype=jnp.float32) / 255.0,
            "labels": jnp.asarray(batch["labels"], dtype=jnp.int32)}
