# replaces: transfer-solution
# fails: transfer-test
def produces_nan(fn, *args):
    # Catches every exception: a ValueError from fn is reported as "produced a NaN".
    with jax.debug_nans(True):
        try:
            fn(*args)
        except Exception:
            return True
    return False
