# replaces: transfer-solution
# fails: transfer-test
def clip_by_global_norm(tree, max_norm):
    # min(norm, c) / norm is the right factor except at norm 0, where it is 0 / 0 = nan.
    norm = jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in jax.tree.leaves(tree)))
    factor = jnp.minimum(norm, max_norm) / norm
    return jax.tree.map(lambda leaf: leaf * factor, tree)
