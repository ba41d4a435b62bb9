# replaces: transfer-solution
# fails: transfer-test
def dp_accuracy(predict_fn, params, x, labels, mesh):
    """(accuracy over the n real rows as a float, boolean `correct` of the padded length, split over mesh)."""
    # Takes the padding to be the rows of zeros: the mask is read off the padded x instead of counting n
    # real rows. A real example whose features are all 0 is then dropped, right or wrong, although its
    # label is part of the accuracy.
    x, labels = np.asarray(x), np.asarray(labels)
    n = x.shape[0]
    extra = -n % mesh.size
    x_pad = np.pad(x, [(0, extra)] + [(0, 0)] * (x.ndim - 1))
    labels_pad = np.pad(labels, (0, extra))
    mask = np.any(x_pad.reshape(n + extra, -1) != 0, axis=1)
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    placed_params = jax.device_put(params, NamedSharding(mesh, P()))
    xs, ls, ms = jax.device_put((x_pad, labels_pad, mask), split)

    @jax.jit
    def correct_rows(params, x, labels, mask):
        return (jnp.argmax(predict_fn(params, x), axis=-1) == labels) & mask

    correct = correct_rows(placed_params, xs, ls, ms)
    return float(jnp.sum(correct)) / n, correct
