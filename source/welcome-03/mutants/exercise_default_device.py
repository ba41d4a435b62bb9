# replaces: exercise-solution
# fails: exercise-test
def predict_on(device, features, weights, bias):
    # Ignores `device`: commits everything to JAX's default device, jax.devices()[0].
    default = jax.devices()[0]
    x_dev = jax.device_put(np.asarray(features, dtype=np.float32), default)
    w_dev = jax.device_put(np.asarray(weights, dtype=np.float32), default)
    return affine(x_dev, w_dev, np.float32(bias)).block_until_ready()
