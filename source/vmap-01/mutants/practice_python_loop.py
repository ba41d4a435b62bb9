# replaces: practice-solution
# fails: practice-test
def pairwise_sq_dists(xs, ys):
    # Right numbers, but a Python loop: the recorded program grows with len(xs) * len(ys).
    return jnp.stack([jnp.stack([sq_dist(x, y) for y in ys]) for x in xs])
