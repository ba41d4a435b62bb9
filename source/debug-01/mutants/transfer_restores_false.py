# replaces: transfer-solution
# fails: transfer-test
def produces_nan(fn, *args):
    # Restores to False instead of to the previous value: a caller who had the flag on loses it.
    jax.config.update("jax_debug_nans", True)
    try:
        fn(*args)
        return False
    except FloatingPointError:
        return True
    finally:
        jax.config.update("jax_debug_nans", False)
