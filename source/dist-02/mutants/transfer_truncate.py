# replaces: transfer-solution
# fails: transfer-test
def dp_accuracy(predict_fn, params, x, labels, mesh):
    """(accuracy over the n real rows as a float, boolean `correct` of the padded length, split over mesh)."""
    # "drop_last": keeps only the rows that fill whole blocks, so the remainder is never evaluated.
    x, labels = np.asarray(x), np.asarray(labels)
    keep = x.shape[0] - x.shape[0] % mesh.size
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    placed_params = jax.device_put(params, NamedSharding(mesh, P()))
    xs, ls = jax.device_put((x[:keep], labels[:keep]), split)
    correct = jax.jit(lambda p, a, b: jnp.argmax(predict_fn(p, a), axis=-1) == b)(placed_params, xs, ls)
    return float(jnp.mean(correct)), correct
