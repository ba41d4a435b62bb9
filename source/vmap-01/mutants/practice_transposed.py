# replaces: practice-solution
# fails: practice-test
def pairwise_sq_dists(xs, ys):
    # Nesting the wrong way round: the outer vmap runs over ys, so the table is (len(ys), len(xs)).
    one_y_all_xs = jax.vmap(sq_dist, in_axes=(0, None))
    return jax.vmap(one_y_all_xs, in_axes=(None, 0))(xs, ys)
