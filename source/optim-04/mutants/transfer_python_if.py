# replaces: transfer-solution
# fails: transfer-test
def clip_by_global_norm(tree, max_norm):
    # A Python if on the norm: fine eagerly, but under jax.jit the norm is a tracer and the if
    # raises TracerBoolConversionError.
    norm = jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in jax.tree.leaves(tree)))
    if norm > max_norm:
        return jax.tree.map(lambda leaf: leaf * (max_norm / norm), tree)
    return tree
