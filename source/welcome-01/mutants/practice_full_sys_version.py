# replaces: practice-solution
# fails: practice-test
def environment_record():
    # sys.version is the whole banner ("3.11.7 (main, ...) [GCC ...]"), not the version number.
    return {
        "python": sys.version,
        "jax": jax.__version__,
        "numpy": np.__version__,
        "backend": jax.default_backend(),
        "device_count": jax.device_count(),
    }
