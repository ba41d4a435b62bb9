# replaces: transfer-solution
# fails: transfer-test
def produces_nan(fn, *args):
    # Turns the flag on and never turns it off: every later computation is slowed and checked.
    jax.config.update("jax_debug_nans", True)
    try:
        fn(*args)
    except FloatingPointError:
        return True
    return False
