# replaces: practice-solution
# fails: practice-test
def max_stable_lr(A):
    # 1 / lambda_max: the step that removes the steepest component in one move, half the limit.
    return 1.0 / jnp.linalg.eigvalsh(A)[-1]
