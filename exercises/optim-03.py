# Lesson optim-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/optim-03.py (or tpu, or gpu); it ends PASS: optim-03

# Minibatches and evaluation on digits: a fixed validation split, a new shuffle every epoch,
# softmax regression trained with SGD on full batches, and the validation accuracy at the end.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
from sklearn.datasets import load_digits


def predict(params, x):
    return x @ params["w"] + params["b"]


def loss_fn(params, x, y):
    log_probs = jax.nn.log_softmax(predict(params, x))
    return -jnp.mean(jnp.take_along_axis(log_probs, y[:, None], axis=1))


@jax.jit
def evaluate(params, x, y):
    return {"loss": loss_fn(params, x, y), "accuracy": jnp.mean(jnp.argmax(predict(params, x), axis=1) == y)}


@jax.jit
def run_epoch(params, x, y, batches, lr):
    def sgd_step(params, idx):
        loss, grads = jax.value_and_grad(loss_fn)(params, x[idx], y[idx])
        return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss
    return jax.lax.scan(sgd_step, params, batches)


# The validation split: a fixed key, decided before any training.
digits = load_digits()
x_all, y_all = (digits.data / 16.0).astype(np.float32), digits.target.astype(np.int32)
order = np.asarray(jax.random.permutation(jax.random.key(0), len(y_all)))
val_idx, train_idx = order[:360], order[360:]
x_train, y_train = jnp.asarray(x_all[train_idx]), jnp.asarray(y_all[train_idx])
x_val, y_val = jnp.asarray(x_all[val_idx]), jnp.asarray(y_all[val_idx])

# Training: epoch e is shuffled with fold_in(shuffle_key, e); the remainder sits out.
shuffle_key = jax.random.key(1)
n_train, batch_size, lr = x_train.shape[0], 32, 0.5
num_batches = n_train // batch_size
params0 = {"w": jnp.zeros((64, 10)), "b": jnp.zeros(10)}
params, sat_out, first_batches = params0, [], []
for epoch in range(3):
    epoch_order = jax.random.permutation(jax.random.fold_in(shuffle_key, epoch), n_train)
    batches = epoch_order[: num_batches * batch_size].reshape(num_batches, batch_size)
    sat_out.append(set(epoch_order[num_batches * batch_size:].tolist()))
    first_batches.append(batches[0])
    params, losses = run_epoch(params, x_train, y_train, batches, lr)
    print(f"epoch {epoch}: {num_batches} batches of {batch_size}, {len(sat_out[-1])} examples sat out | "
          f"mean batch loss {float(losses.mean()):.4f} | "
          f"validation accuracy {float(evaluate(params, x_val, y_val)['accuracy']):.4f}")

zero, final = evaluate(params0, x_val, y_val), evaluate(params, x_val, y_val)
print(f"zero model:     validation loss {float(zero['loss']):.4f}, accuracy {float(zero['accuracy']):.4f}")
print(f"after 3 epochs: validation loss {float(final['loss']):.4f}, accuracy {float(final['accuracy']):.4f} "
      f"({round(float(final['accuracy']) * 360)} of 360)")
print("examples that sat out all 3 epochs:", sorted(set.intersection(*sat_out)))

assert set(train_idx.tolist()).isdisjoint(val_idx.tolist()) and len(train_idx) + len(val_idx) == 1797
assert num_batches == 44 and all(len(s) == n_train - num_batches * batch_size for s in sat_out)
assert not jnp.array_equal(first_batches[0], first_batches[1])      # each epoch has its own order
assert abs(float(zero["loss"]) - np.log(10.0)) < 1e-3   # a TPU's log is about 2e-5 off
assert float(final["accuracy"]) >= 0.9
print("PASS: optim-03")
