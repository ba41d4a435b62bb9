# replaces: transfer-solution
# fails: transfer-test
def mse_lr_limit(X):
    # Forgets the 2 from differentiating the square: Hessian X^T X / n, a limit twice too large.
    n = X.shape[0]
    hessian = jnp.matmul(X.T, X, precision="highest") / n
    return 2.0 / jnp.linalg.eigvalsh(hessian)[-1]
