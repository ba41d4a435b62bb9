# replaces: challenge-solution
# fails: challenge-test
def device_receipt(y, reference, requested):
    # Types the lesson's dtype into the receipt instead of reading y.dtype.
    if np.shape(reference) != y.shape:
        raise ValueError(f"reference has shape {np.shape(reference)}, the prediction {y.shape}")
    y = y.block_until_ready()
    output_platforms = sorted({d.platform for d in y.devices()})
    observed = jax.default_backend()
    error = np.abs(np.asarray(y) - np.asarray(reference))
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
        "dtype": "float32",
        "max_abs_error": float(np.max(error)) if error.size else 0.0,
        "platform_matches": observed == requested and output_platforms == [requested],
    }
