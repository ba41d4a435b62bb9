# replaces: practice-solution
# fails: practice-test
def max_stable_lr(A):
    # Divides by the trace (the SUM of the eigenvalues): a safe but too small rate, except in 1 x 1.
    return 2.0 / jnp.trace(A)
