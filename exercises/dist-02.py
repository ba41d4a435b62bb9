# Lesson dist-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/dist-02.py (or tpu, or gpu); it ends PASS: dist-02

# Data parallelism with jit: replicate the parameters, split the batch over 8 devices, and run the
# unchanged jitted training step. Check: same numbers as one device, parameters still replicated,
# and an all-reduce (the gradient sum) that the compiler added to the program.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

if jax.device_count() < 8:
    raise RuntimeError(f"this example needs 8 devices, found {jax.device_count()}: run it in a fresh "
                       "Python process with JAX_NUM_CPU_DEVICES=8 (the CPU backend)")

mesh = jax.make_mesh((8,), ("data",), axis_types=(AxisType.Explicit,))
replicated, split = NamedSharding(mesh, P()), NamedSharding(mesh, P("data"))

rng = np.random.default_rng(0)
x_host = rng.normal(size=(16, 4)).astype(np.float32)
w_true = rng.normal(size=(4, 2)).astype(np.float32)
y_host = (x_host @ w_true + 0.1 * rng.normal(size=(16, 2))).astype(np.float32)
params0 = {"w": np.zeros((4, 2), np.float32), "b": np.zeros((2,), np.float32)}


def loss_fn(params, batch):
    x, y = batch
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def sgd_step(params, batch):
    loss, grads = jax.value_and_grad(loss_fn)(params, batch)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads), loss


# Way 1: place the inputs, then call the plain jitted step.
step = jax.jit(sgd_step)
params = jax.device_put(params0, replicated)
batch = jax.device_put((x_host, y_host), split)
print("x:", jax.typeof(batch[0]), "| per-device batch:", batch[0].sharding.shard_shape(batch[0].shape)[0])
dp_params, ref_params = params, params0
for t in range(20):
    dp_params, dp_loss = step(dp_params, batch)
    ref_params, ref_loss = step(ref_params, (x_host, y_host))
gap = max(float(np.abs(np.asarray(a) - np.asarray(b)).max())
          for a, b in zip(jax.tree.leaves(dp_params), jax.tree.leaves(ref_params)))
print(f"after 20 steps: loss {float(dp_loss):.6f} on 8 devices, {float(ref_loss):.6f} on 1; largest gap {gap:.1e}")
assert gap < 1e-5 and abs(float(dp_loss) - float(ref_loss)) < 1e-5

# Way 2: declare the layouts on the jit; NumPy arrays go straight to the devices that need them.
dp_step = jax.jit(sgd_step, in_shardings=(replicated, split), out_shardings=(replicated, replicated))
compiled = dp_step.lower(params0, (x_host, y_host)).compile()   # the program jit would run
p2 = params0
for t in range(20):
    p2, loss2 = compiled(p2, (x_host, y_host))
arrives = compiled.input_shardings[0][1][0].shard_shape(x_host.shape)
print("declared step: x arrives as", arrives, "per device | new w:", p2["w"].sharding.spec,
      "on devices", sorted(d.id for d in p2["w"].devices()))
assert arrives == (2, 4) and abs(float(loss2) - float(dp_loss)) < 1e-5
for leaf in jax.tree.leaves(p2):
    assert leaf.sharding.is_fully_replicated and len(leaf.addressable_shards) == 8

# The communication: not in the jaxpr, added by the compiler.
jaxpr_text = str(jax.make_jaxpr(sgd_step)(params, batch))
n_all_reduce = compiled.as_text().count(" all-reduce(")
print("psum in the jaxpr:", "psum" in jaxpr_text, "| all-reduce ops in the compiled program:", n_all_reduce)
assert "psum" not in jaxpr_text and n_all_reduce == 1
print("PASS: dist-02")
