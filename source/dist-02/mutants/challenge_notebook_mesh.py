# replaces: challenge-solution
# fails: challenge-test
def make_dp_step(loss_fn, mesh, learning_rate):
    """A jax.jit-compiled step(params, batch) -> (new_params, loss): plain SGD, data parallel on mesh."""
    # Typed in from Step 1: the notebook's `replicated` and `split` shardings, built on the
    # lesson's 8-device mesh with P("data"), instead of shardings on the mesh argument.
    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads), loss

    return jax.jit(step, in_shardings=(replicated, split), out_shardings=(replicated, replicated))
