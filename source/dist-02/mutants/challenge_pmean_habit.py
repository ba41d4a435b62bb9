# replaces: challenge-solution
# fails: challenge-test
def make_dp_step(loss_fn, mesh, learning_rate):
    """A jax.jit-compiled step(params, batch) -> (new_params, loss): plain SGD, data parallel on mesh."""
    # "Average over the devices": the gradient of the global mean is divided by mesh.size once
    # more, so every update is mesh.size times too small.
    replicated = NamedSharding(mesh, P())
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))

    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - learning_rate * g / mesh.size, params, grads), loss

    return jax.jit(step, in_shardings=(replicated, split), out_shardings=(replicated, replicated))
