# replaces: transfer-solution
# fails: transfer-test
def dp_accuracy(predict_fn, params, x, labels, mesh):
    """(accuracy over the n real rows as a float, boolean `correct` of the padded length, split over mesh)."""
    # Right padding, mask and count, but nothing is placed: the whole evaluation runs on one device.
    x, labels = np.asarray(x), np.asarray(labels)
    n = x.shape[0]
    extra = -n % mesh.size
    x_pad = np.pad(x, [(0, extra)] + [(0, 0)] * (x.ndim - 1))
    labels_pad = np.pad(labels, (0, extra))
    mask = np.arange(n + extra) < n
    correct = jax.jit(lambda p, a, b, m: (jnp.argmax(predict_fn(p, a), axis=-1) == b) & m)(params, x_pad, labels_pad, mask)
    return float(jnp.sum(correct)) / n, correct
