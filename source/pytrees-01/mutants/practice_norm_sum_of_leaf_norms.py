# replaces: practice-norm-solution
# fails: practice-norm-test
def global_norm(tree):
    # Adds the norms of the leaves: one square root per leaf, so the result is too large.
    return sum(jnp.sqrt(jnp.sum(leaf ** 2)) for leaf in jax.tree.leaves(tree))
