# replaces: practice-solution
# fails: practice-test
def environment_record():
    # Stores the list of devices instead of how many there are.
    return {
        "python": platform.python_version(),
        "jax": jax.__version__,
        "numpy": np.__version__,
        "backend": jax.default_backend(),
        "device_count": jax.devices(),
    }
