# replaces: transfer-solution
# fails: transfer-test
def dp_accuracy(predict_fn, params, x, labels, mesh):
    # Writes the example's linear model into the jitted function instead of calling predict_fn.
    x, labels = np.asarray(x), np.asarray(labels)
    n = x.shape[0]
    extra = -n % mesh.size
    x_pad = np.pad(x, [(0, extra)] + [(0, 0)] * (x.ndim - 1))
    labels_pad = np.pad(labels, (0, extra))
    mask = np.arange(n + extra) < n
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    placed_params = jax.device_put(params, NamedSharding(mesh, P()))
    xs, ls, ms = jax.device_put((x_pad, labels_pad, mask), split)

    @jax.jit
    def correct_rows(params, x, labels, mask):
        return (jnp.argmax(x @ params["w"] + params["b"], axis=-1) == labels) & mask

    correct = correct_rows(placed_params, xs, ls, ms)
    return float(jnp.sum(correct)) / n, correct
