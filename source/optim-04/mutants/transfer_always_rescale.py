# replaces: transfer-solution
# fails: transfer-test
def clip_by_global_norm(tree, max_norm):
    # Rescales every tree to norm max_norm: small gradients are blown up, and zeros become 0 / 0 = nan.
    norm = jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in jax.tree.leaves(tree)))
    return jax.tree.map(lambda leaf: leaf * (max_norm / norm), tree)
