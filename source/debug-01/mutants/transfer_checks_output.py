# replaces: transfer-solution
# fails: transfer-test
def produces_nan(fn, *args):
    # Looks at the output only: a NaN that fn computes and then masks is never seen.
    return bool(jnp.any(jnp.isnan(fn(*args))))
