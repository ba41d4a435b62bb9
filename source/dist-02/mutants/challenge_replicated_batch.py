# replaces: challenge-solution
# fails: challenge-test
def make_dp_step(loss_fn, mesh, learning_rate):
    """A jax.jit-compiled step(params, batch) -> (new_params, loss): plain SGD, data parallel on mesh."""
    # The batch is declared replicated: right numbers, replicated parameters, but every device
    # computes the whole batch and the program has no all-reduce.
    replicated = NamedSharding(mesh, P())

    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads), loss

    return jax.jit(step, in_shardings=(replicated, replicated), out_shardings=(replicated, replicated))
