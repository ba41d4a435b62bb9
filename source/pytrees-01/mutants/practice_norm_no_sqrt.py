# replaces: practice-norm-solution
# fails: practice-norm-test
def global_norm(tree):
    # Forgets the square root: returns the sum of squares.
    return sum(jnp.sum(leaf ** 2) for leaf in jax.tree.leaves(tree))
