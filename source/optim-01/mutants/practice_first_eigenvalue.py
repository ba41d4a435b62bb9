# replaces: practice-solution
# fails: practice-test
def max_stable_lr(A):
    # eigvalsh sorts ASCENDING: index 0 is lambda_min, which gives a rate far above the limit.
    return 2.0 / jnp.linalg.eigvalsh(A)[0]
