# replaces: transfer-solution
# fails: transfer-test
def mse_lr_limit(X):
    # Uses X^T X itself as the curvature (no 2, no 1/n): right only when n = 2.
    return 2.0 / jnp.linalg.eigvalsh(jnp.matmul(X.T, X, precision="highest"))[-1]
