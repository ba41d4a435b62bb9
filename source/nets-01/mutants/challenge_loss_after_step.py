# replaces: challenge-solution
# fails: challenge-test
def train_mlp(params, x, y, num_steps, lr):
    # Records the loss after each update instead of before it: losses[0] is already one step in.
    def step(params, _):
        grads = jax.grad(lambda p: cross_entropy(mlp_apply(p, x), y))(params)
        params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
        return params, cross_entropy(mlp_apply(params, x), y)

    return jax.lax.scan(step, params, None, length=num_steps)
