# replaces: practice-solution
# fails: practice-test
def max_stable_lr(A):
    # The largest diagonal entry is the curvature along a coordinate axis, not lambda_max:
    # right for the diagonal example only.
    return 2.0 / jnp.max(jnp.diag(A))
