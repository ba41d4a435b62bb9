# replaces: challenge-solution
# fails: challenge-test
def device_receipt(y, reference, requested):
    # Largest signed difference: an entry that is far too low never shows up.
    if np.shape(reference) != y.shape:
        raise ValueError("shape mismatch")
    y = y.block_until_ready()
    output_platforms = sorted({d.platform for d in y.devices()})
    observed = jax.default_backend()
    return {
        "requested": requested,
        "observed": observed,
        "output_platforms": output_platforms,
        "device_kinds": sorted({d.device_kind for d in jax.devices()}),
        "device_count": jax.device_count(),
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "python": platform.python_version(),
        "shape": list(y.shape),
        "dtype": str(y.dtype),
        "max_abs_error": float(np.max(np.asarray(y) - np.asarray(reference))),
        "platform_matches": observed == requested and output_platforms == [requested],
    }
