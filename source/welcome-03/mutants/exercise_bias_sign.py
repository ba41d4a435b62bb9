# replaces: exercise-solution
# fails: exercise-test
def predict_on(device, features, weights, bias):
    # Subtracts the bias instead of adding it: bias -1/4 raises every prediction by 1/4.
    x_dev = jax.device_put(np.asarray(features, dtype=np.float32), device)
    w_dev = jax.device_put(np.asarray(weights, dtype=np.float32), device)
    return (jnp.matmul(x_dev, w_dev, precision="highest") - np.float32(bias)).block_until_ready()
