# replaces: challenge-solution
# fails: challenge-test
def device_receipt(y, reference, requested):
    # Judges the platform by the numbers: a perfect match "proves" whatever was requested.
    if np.shape(reference) != y.shape:
        raise ValueError("shape mismatch")
    y = y.block_until_ready()
    error = float(np.max(np.abs(np.asarray(y) - np.asarray(reference))))
    return {
        "requested": requested,
        "observed": jax.default_backend(),
        "output_platforms": sorted({d.platform for d in y.devices()}),
        "device_kinds": sorted({d.device_kind for d in jax.devices()}),
        "device_count": jax.device_count(),
        "process_index": jax.process_index(),
        "process_count": jax.process_count(),
        "jax": jax.__version__,
        "jaxlib": jaxlib.__version__,
        "python": platform.python_version(),
        "shape": list(y.shape),
        "dtype": str(y.dtype),
        "max_abs_error": error,
        "platform_matches": error <= 1e-6,
    }
