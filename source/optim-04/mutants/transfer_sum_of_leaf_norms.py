# replaces: transfer-solution
# fails: transfer-test
def clip_by_global_norm(tree, max_norm):
    # One factor for all leaves, but from the sum of the leaf norms, which overstates the global norm.
    norm = sum(jnp.sqrt(jnp.sum(leaf ** 2)) for leaf in jax.tree.leaves(tree))
    factor = max_norm / jnp.maximum(norm, max_norm)
    return jax.tree.map(lambda leaf: leaf * factor, tree)
