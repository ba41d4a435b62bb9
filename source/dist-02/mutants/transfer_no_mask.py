# replaces: transfer-solution
# fails: transfer-test
def dp_accuracy(predict_fn, params, x, labels, mesh):
    """(accuracy over the n real rows as a float, boolean `correct` of the padded length, split over mesh)."""
    # Pads and places correctly but forgets the mask: a zero row predicted as class 0 matches its
    # padded label 0 and counts as correct.
    x, labels = np.asarray(x), np.asarray(labels)
    n = x.shape[0]
    extra = -n % mesh.size
    x_pad = np.pad(x, [(0, extra)] + [(0, 0)] * (x.ndim - 1))
    labels_pad = np.pad(labels, (0, extra))
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    placed_params = jax.device_put(params, NamedSharding(mesh, P()))
    xs, ls = jax.device_put((x_pad, labels_pad), split)
    correct = jax.jit(lambda p, a, b: jnp.argmax(predict_fn(p, a), axis=-1) == b)(placed_params, xs, ls)
    return float(jnp.sum(correct)) / n, correct
