# replaces: practice-solution
# fails: practice-test
def loss_and_grads(loss_fn, params, batch):
    # Reports the right loss and aux, but the gradient is taken through loss AND aux.
    loss, aux = loss_fn(params, batch)
    grads = jax.grad(lambda p: sum(jnp.sum(leaf) for leaf in jax.tree.leaves(loss_fn(p, batch))))(params)
    return (loss, aux), grads
