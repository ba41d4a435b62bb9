# replaces: practice-count-solution
# fails: practice-count-test
def count_params(tree):
    # Counts rows: the length of each leaf's first axis (1 for a scalar), not its size.
    return sum(int(np.shape(leaf)[0]) if np.ndim(leaf) else 1 for leaf in jax.tree.leaves(tree))
