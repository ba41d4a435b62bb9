# replaces: transfer-solution
# fails: transfer-test
def clip_by_global_norm(tree, max_norm):
    # Each leaf is clipped to max_norm on its own: the direction changes and the total can exceed
    # max_norm.
    return jax.tree.map(lambda leaf: leaf * (max_norm / jnp.maximum(jnp.sqrt(jnp.sum(leaf ** 2)), max_norm)), tree)
