# replaces: practice-solution
# fails: practice-test
def loss_and_grads(loss_fn, params, batch):
    # Treats aux as part of the loss: every metric is added to the objective and differentiated.
    def total(p, b):
        loss, aux = loss_fn(p, b)
        return loss + sum(jnp.sum(leaf) for leaf in jax.tree.leaves(aux)), aux

    return jax.value_and_grad(total, has_aux=True)(params, batch)
