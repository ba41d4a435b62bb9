# replaces: practice-solution
# fails: practice-test
def environment_record():
    # Reports the processor architecture (e.g. "x86_64") where JAX's backend belongs.
    return {
        "python": platform.python_version(),
        "jax": jax.__version__,
        "numpy": np.__version__,
        "backend": platform.machine(),
        "device_count": jax.device_count(),
    }
