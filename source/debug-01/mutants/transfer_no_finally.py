# replaces: transfer-solution
# fails: transfer-test
def produces_nan(fn, *args):
    # Restores the flag after the try block, not in a finally: another exception leaves it on.
    previous = jax.config.jax_debug_nans
    jax.config.update("jax_debug_nans", True)
    try:
        fn(*args)
        found = False
    except FloatingPointError:
        found = True
    jax.config.update("jax_debug_nans", previous)
    return found
