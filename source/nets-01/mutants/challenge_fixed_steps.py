# replaces: challenge-solution
# fails: challenge-test
def train_mlp(params, x, y, num_steps, lr):
    # Types the example's 200 steps into the scan: any other num_steps is ignored.
    def step(params, _):
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(mlp_apply(p, x), y))(params)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    return jax.lax.scan(step, params, None, length=200)
