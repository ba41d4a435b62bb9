# replaces: transfer-solution
# fails: transfer-test
def mse_lr_limit(X):
    # Forgets the 1/n of the mean: the Hessian of the SUM of squares, a limit n times too small.
    hessian = 2.0 * jnp.matmul(X.T, X, precision="highest")
    return 2.0 / jnp.linalg.eigvalsh(hessian)[-1]
