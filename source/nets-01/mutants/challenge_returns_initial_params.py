# replaces: challenge-solution
# fails: challenge-test
def train_mlp(params, x, y, num_steps, lr):
    # Runs the scan but returns the parameters it started with, not the scan's final carry.
    def step(params, _):
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(mlp_apply(p, x), y))(params)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss

    _, losses = jax.lax.scan(step, params, None, length=num_steps)
    return params, losses
