# Lesson nets-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/nets-02.py (or tpu, or gpu); it ends PASS: nets-02

# Flax NNX: a module that holds its parameters, trained with nnx.Optimizer and nnx.jit,
# evaluated through split/merge under jax.jit, next to a compiled closure that went stale.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import nnx
from sklearn.datasets import load_digits


class Classifier(nnx.Module):
    def __init__(self, din, dhidden, dout, *, dropout_rate, rngs):
        self.linear1 = nnx.Linear(din, dhidden, rngs=rngs)
        self.dropout = nnx.Dropout(dropout_rate, rngs=rngs)
        self.linear2 = nnx.Linear(dhidden, dout, rngs=rngs)

    def __call__(self, x, *, train):
        h = jax.nn.relu(self.linear1(x))
        return self.linear2(self.dropout(h, deterministic=not train))


def loss_fn(model, x, y):
    return optax.softmax_cross_entropy_with_integer_labels(model(x, train=True), y).mean()


@nnx.jit
def train_step(model, optimizer, x, y):
    loss, grads = nnx.value_and_grad(loss_fn)(model, x, y)
    optimizer.update(model, grads)
    return loss


def accuracy(logits, y):
    return float(jnp.mean(jnp.argmax(logits, axis=-1) == y))


digits = load_digits()
x_all, y_all = (digits.data / 16.0).astype(np.float32), digits.target.astype(np.int32)
order = np.asarray(jax.random.permutation(jax.random.key(0), len(y_all)))
x_train, y_train = jnp.asarray(x_all[order[360:]]), jnp.asarray(y_all[order[360:]])
x_val, y_val = jnp.asarray(x_all[order[:360]]), jnp.asarray(y_all[order[:360]])

model = Classifier(64, 32, 10, dropout_rate=0.2, rngs=nnx.Rngs(0))
twin = Classifier(64, 32, 10, dropout_rate=0.2, rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(2e-2), wrt=nnx.Param)
n_params = sum(p.size for p in jax.tree.leaves(nnx.state(model, nnx.Param)))
print("parameters:", n_params, "| same seed, same kernel:",
      bool(jnp.array_equal(model.linear1.kernel[...], twin.linear1.kernel[...])))

graphdef = nnx.graphdef(model)
predict = jax.jit(lambda state, x: nnx.merge(graphdef, state)(x, train=False))
stale = jax.jit(lambda x: model(x, train=False))           # reads `model` from the closure
acc_before = accuracy(stale(x_val), y_val)                 # traced now, with the initial parameters

losses = [float(train_step(model, optimizer, x_train, y_train)) for _ in range(50)]
acc_pure = accuracy(predict(nnx.state(model), x_val), y_val)
acc_stale = accuracy(stale(x_val), y_val)
print(f"loss {losses[0]:.4f} -> {losses[-1]:.4f} in {int(optimizer.step[...])} steps")
print(f"validation accuracy: before {acc_before:.4f} | after, via merge {acc_pure:.4f} | after, stale closure {acc_stale:.4f}")

assert n_params == 2410
assert int(optimizer.step[...]) == 50 and losses[-1] < 0.5 * losses[0]
assert acc_pure >= 0.9
assert acc_stale == acc_before                             # the closure still holds the initial arrays
print("PASS: nets-02")
