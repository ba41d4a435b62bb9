# replaces: challenge-solution
# fails: challenge-test
def train_mlp(params, x, y, num_steps, lr):
    # Sums the cross-entropies of all rows instead of averaging: steps about n times too large.
    def step(params, _):
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(mlp_apply(p, x), y) * x.shape[0])(params)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    return jax.lax.scan(step, params, None, length=num_steps)
