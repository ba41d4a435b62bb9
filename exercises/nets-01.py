# Lesson nets-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/nets-01.py (or tpu, or gpu); it ends PASS: nets-01

# An MLP from scratch on digits: He initialization, a ReLU hidden layer, logits, cross-entropy,
# 200 full-batch gradient steps, then the validation accuracy and the confusion matrix.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from sklearn.datasets import load_digits


def init_params(key, n_in=64, n_hidden=32, n_out=10):
    hidden_key, output_key = jax.random.split(key)
    return {"hidden": {"w": jax.random.normal(hidden_key, (n_in, n_hidden)) * jnp.sqrt(2.0 / n_in), "b": jnp.zeros(n_hidden)},
            "output": {"w": jax.random.normal(output_key, (n_hidden, n_out)) * jnp.sqrt(2.0 / n_hidden), "b": jnp.zeros(n_out)}}


def forward(params, x):
    hidden = jax.nn.relu(x @ params["hidden"]["w"] + params["hidden"]["b"])     # ReLU on the hidden layer
    return hidden @ params["output"]["w"] + params["output"]["b"]                # logits: no ReLU


def cross_entropy(logits, labels):
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, labels[:, None], axis=1)[:, 0])


@partial(jax.jit, static_argnums=4)
def train(params, x, y, lr, num_steps):
    def step(params, _):
        loss, grads = jax.value_and_grad(lambda p: cross_entropy(forward(p, x), y))(params)
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss
    return jax.lax.scan(step, params, None, length=num_steps)


@jax.jit
def predict(params, x):
    return jnp.argmax(forward(params, x), axis=1)


digits = load_digits()
x_all, y_all = (digits.data / 16.0).astype(np.float32), digits.target.astype(np.int32)
order = np.asarray(jax.random.permutation(jax.random.key(0), len(y_all)))
x_train, y_train = jnp.asarray(x_all[order[360:]]), jnp.asarray(y_all[order[360:]])
x_val, y_val = jnp.asarray(x_all[order[:360]]), jnp.asarray(y_all[order[:360]])

params0 = init_params(jax.random.key(3))
params, losses = train(params0, x_train, y_train, 0.5, 200)
val_pred = np.asarray(predict(params, x_val))
cm = np.zeros((10, 10), np.int64)
np.add.at(cm, (np.asarray(y_val), val_pred), 1)  # cm[true, predicted] += 1 for every validation image
val_accuracy = float(np.mean(val_pred == np.asarray(y_val)))
print("parameters:", sum(leaf.size for leaf in jax.tree.leaves(params0)))
print(f"std of W: hidden {float(params0['hidden']['w'].std()):.4f} (sqrt(2/64) = {np.sqrt(2 / 64):.4f}), "
      f"output {float(params0['output']['w'].std()):.4f} (sqrt(2/32) = {np.sqrt(2 / 32):.4f})")
print(f"training loss: {float(losses[0]):.4f} at step 0, {float(losses[-1]):.4f} at step 199")
print(f"validation accuracy: {val_accuracy:.4f} ({int(np.trace(cm))} of 360)")
print("confusion matrix (rows: true digit, columns: predicted digit):")
print(cm)
recall = np.diag(cm) / cm.sum(axis=1)
print("worst recognized digit:", int(np.argmin(recall)), f"(recall {recall.min():.4f})")

assert params0["hidden"]["w"].shape == (64, 32) and params0["output"]["w"].shape == (32, 10)
assert float(losses[-1]) < float(losses[0])
assert val_accuracy >= 0.9
assert cm.sum() == 360 and int(np.trace(cm)) == round(val_accuracy * 360)
assert np.array_equal(cm.sum(axis=1), np.bincount(np.asarray(y_val), minlength=10))
print("PASS: nets-01")
