# Lesson nets-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/nets-03.py (or tpu, or gpu); it ends PASS: nets-03

# Convolutions on 8x8 digits: lax.conv_general_dilated with explicit NHWC / HWIO layouts, the output
# shapes of SAME and VALID padding, and a small CNN (conv, ReLU, 2x2 max pool, dense) trained with SGD.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from sklearn.datasets import load_digits

DIMS = ("NHWC", "HWIO", "NHWC")

# The digits as NHWC images, and the validation split of optim-03.
digits = load_digits()
images = (digits.images / 16.0).astype(np.float32)[..., None]          # (1797, 8, 8, 1)
labels = digits.target.astype(np.int32)
order = np.asarray(jax.random.permutation(jax.random.key(0), len(labels)))
x_train, y_train = jnp.asarray(images[order[360:]]), jnp.asarray(labels[order[360:]])
x_val, y_val = jnp.asarray(images[order[:360]]), jnp.asarray(labels[order[:360]])
print("training:", x_train.shape, "| validation:", x_val.shape)

# One kernel on one digit: an output by hand, and the shapes of both paddings at strides 1 and 2.
edge = np.array([[-1.0, 0.0, 1.0]] * 3, np.float32)[:, :, None, None]   # HWIO (3, 3, 1, 1), NumPy
digit0 = digits.images[:1, :, :, None].astype(np.float32)               # raw pixels 0..16, NumPy
edge_map = lax.conv_general_dilated(digit0, edge, (1, 1), "SAME", dimension_numbers=DIMS)
by_hand = float(np.sum(digit0[0, 1:4, 0:3, 0] * edge[:, :, 0, 0]))
print("output[2, 1]: by hand", by_hand, "| lax", float(edge_map[0, 2, 1, 0]))
shapes = {}
for padding in ("SAME", "VALID"):
    for stride in (1, 2):
        shapes[padding, stride] = lax.conv_general_dilated(digit0, edge, (stride, stride), padding,
                                                           dimension_numbers=DIMS).shape
        print(f"{padding:5} stride {stride}: {shapes[padding, stride]}")


def init_cnn(key, channels=8):
    conv_key, dense_key = jax.random.split(key)
    # Drawn as flat vectors and reshaped: on CPU a smaller program to compile than a 4-D draw.
    conv_w = jax.random.normal(conv_key, (9 * channels,)).reshape(3, 3, 1, channels)
    dense_w = jax.random.normal(dense_key, (160 * channels,)).reshape(16 * channels, 10)
    return {"conv_w": conv_w * (2.0 / 9) ** 0.5, "conv_b": jnp.zeros(channels),
            "dense_w": dense_w * (2.0 / (16 * channels)) ** 0.5, "dense_b": jnp.zeros(10)}


def cnn_apply(params, x):
    h = lax.conv_general_dilated(x, params["conv_w"], (1, 1), "SAME", dimension_numbers=DIMS) + params["conv_b"]
    h = jax.nn.relu(h)
    n, height, width, c = h.shape
    h = h.reshape(n, height // 2, 2, width // 2, 2, c).max(axis=(2, 4))   # 2 x 2 max pool
    return h.reshape(n, -1) @ params["dense_w"] + params["dense_b"]


def loss_fn(params, x, y):
    log_probs = jax.nn.log_softmax(cnn_apply(params, x))
    return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))


@jax.jit
def run_epoch(params, x, y, batches, lr):
    def sgd_step(params, idx):
        loss, grads = jax.value_and_grad(loss_fn)(params, x[idx], y[idx])
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss
    return lax.scan(sgd_step, params, batches)


@jax.jit
def accuracy(params, x, y):
    return jnp.mean(jnp.argmax(cnn_apply(params, x), axis=1) == y)


params = init_cnn(jax.random.key(1))
num_params = sum(p.size for p in jax.tree.leaves(params))
print("parameters:", num_params)
num_batches = x_train.shape[0] // 32
for epoch in range(3):
    epoch_order = jax.random.permutation(jax.random.fold_in(jax.random.key(2), epoch), x_train.shape[0])
    params, losses = run_epoch(params, x_train, y_train, epoch_order[: num_batches * 32].reshape(num_batches, 32), 0.5)
    print(f"epoch {epoch}: mean batch loss {float(losses.mean()):.4f} | validation accuracy "
          f"{float(accuracy(params, x_val, y_val)):.4f}")

assert by_hand == float(edge_map[0, 2, 1, 0]) == 40.0
assert shapes == {("SAME", 1): (1, 8, 8, 1), ("SAME", 2): (1, 4, 4, 1),
                  ("VALID", 1): (1, 6, 6, 1), ("VALID", 2): (1, 3, 3, 1)}
assert num_params == 1370
assert float(accuracy(params, x_val, y_val)) >= 0.9
print("PASS: nets-03")
