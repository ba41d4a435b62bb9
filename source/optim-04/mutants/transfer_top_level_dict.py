# replaces: transfer-solution
# fails: transfer-test
def clip_by_global_norm(tree, max_norm):
    # Treats the tree as a flat dictionary of arrays: nested dictionaries and lists break.
    norm = jnp.sqrt(sum(jnp.sum(leaf ** 2) for leaf in tree.values()))
    factor = max_norm / jnp.maximum(norm, max_norm)
    return {name: leaf * factor for name, leaf in tree.items()}
