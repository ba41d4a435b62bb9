# replaces: practice-solution
# fails: practice-test
def pairwise_sq_dists(xs, ys):
    # A single vmap pairs xs[i] with ys[i] only: the diagonal of the table (and an error when n != m).
    return jax.vmap(sq_dist)(xs, ys)
