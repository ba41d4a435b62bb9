# replaces: challenge-solution
# fails: challenge-test
def make_dp_step(loss_fn, mesh, learning_rate):
    """A jax.jit-compiled step(params, batch) -> (new_params, loss): plain SGD, data parallel on mesh."""
    # Places the inputs with device_put INSIDE jit: works on an Explicit mesh, silently dropped on
    # an Auto mesh (the batch arrives whole and there is no all-reduce).
    replicated = NamedSharding(mesh, P())
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))

    @jax.jit
    def step(params, batch):
        params, batch = jax.device_put(params, replicated), jax.device_put(batch, split)
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads), loss

    return step
