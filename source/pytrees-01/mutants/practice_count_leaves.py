# replaces: practice-count-solution
# fails: practice-count-test
def count_params(tree):
    # Counts the arrays, not the scalars in them.
    return len(jax.tree.leaves(tree))
