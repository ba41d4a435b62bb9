# replaces: challenge-solution
# fails: challenge-test
def make_dp_step(loss_fn, mesh, learning_rate):
    """A jax.jit-compiled step(params, batch) -> (new_params, loss): plain SGD, data parallel on mesh."""
    # Splits the batch over the first mesh axis only: on a 2-D mesh each device gets several
    # times its share, and the blocks are duplicated along the other axis.
    replicated = NamedSharding(mesh, P())
    split = NamedSharding(mesh, P(mesh.axis_names[0]))

    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads), loss

    return jax.jit(step, in_shardings=(replicated, split), out_shardings=(replicated, replicated))
