# replaces: transfer-solution
# fails: transfer-test
import jax


def dp_accuracy(predict_fn, params, x, labels, mesh):
    """(accuracy over the n real rows as a float, boolean `correct` of the padded length, split over mesh)."""
    # Typed in from the example: pads to a multiple of the machine's 8 devices, not of mesh.size.
    x, labels = np.asarray(x), np.asarray(labels)
    n = x.shape[0]
    extra = -n % jax.device_count()
    x_pad = np.pad(x, [(0, extra)] + [(0, 0)] * (x.ndim - 1))
    labels_pad = np.pad(labels, (0, extra))
    mask = np.arange(n + extra) < n
    split = NamedSharding(mesh, P(tuple(mesh.axis_names)))
    placed_params = jax.device_put(params, NamedSharding(mesh, P()))
    xs, ls, ms = jax.device_put((x_pad, labels_pad, mask), split)
    correct = jax.jit(lambda p, a, b, m: (jnp.argmax(predict_fn(p, a), axis=-1) == b) & m)(placed_params, xs, ls, ms)
    return float(jnp.sum(correct)) / n, correct
