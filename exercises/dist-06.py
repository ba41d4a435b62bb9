# Lesson dist-06: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/dist-06.py (or tpu, or gpu); it ends PASS: dist-06

# Save sharded, restore resharded: a state saved from a 2 x 4 mesh comes back on an 8 x 1 mesh,
# bit for bit, because the abstract target names the new layout for every leaf.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "8")

import pathlib
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
import orbax.checkpoint as ocp
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

if jax.device_count() < 8:
    raise RuntimeError(f"this example needs 8 devices, found {jax.device_count()}: run it in a fresh "
                       "Python process with JAX_NUM_CPU_DEVICES=8 (the CPU backend)")

specs = {"params": {"w1": P("data", "model"), "b1": P("model"), "w2": P("model", "data"), "b2": P()},
         "step": P()}


def init_state():
    params = {"w1": jnp.zeros((8, 16)), "b1": jnp.zeros(16), "w2": jnp.zeros((16, 8)), "b2": jnp.zeros(8)}
    return {"params": params, "step": jnp.int32(0)}


def place(values, mesh):
    return jax.tree.map(lambda v, spec: jax.device_put(v, NamedSharding(mesh, spec)), values, specs)


def bytes_on(tree, device):
    return sum(s.data.nbytes for leaf in jax.tree.leaves(tree) for s in leaf.addressable_shards if s.device == device)


trained = {"params": {"w1": np.arange(128, dtype=np.float32).reshape(8, 16), "b1": np.arange(16, dtype=np.float32) / 4,
                      "w2": np.arange(128, dtype=np.float32).reshape(16, 8) - 64, "b2": np.full(8, 0.5, np.float32)},
           "step": np.int32(40)}
mesh_2x4 = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
state = place(trained, mesh_2x4)

path = pathlib.Path(tempfile.mkdtemp()).resolve() / "step_40"     # orbax wants an absolute path
checkpointer = ocp.StandardCheckpointer()
checkpointer.save(path, state)
checkpointer.wait_until_finished()

# A restarted process: the code and the mesh it has now, no values.
mesh_8x1 = jax.make_mesh((8, 1), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
target = jax.tree.map(lambda leaf, spec: jax.ShapeDtypeStruct(leaf.shape, leaf.dtype, sharding=NamedSharding(mesh_8x1, spec)),
                      jax.eval_shape(init_state), specs)
restored = checkpointer.restore(path, target)
checkpointer.close()

for name in ("w1", "b1"):
    before, after = state["params"][name], restored["params"][name]
    print(f"{name}: {jax.typeof(before)}, blocks {before.sharding.shard_shape(before.shape)} on 2 x 4 -> "
          f"{after.sharding.shard_shape(after.shape)} on 8 x 1")
print("bytes per device: saved", bytes_on(state, jax.devices()[0]), "| restored", bytes_on(restored, jax.devices()[0]),
      "| global", sum(leaf.nbytes for leaf in jax.tree.leaves(state)))

leaves = zip(jax.tree.leaves(restored), jax.tree.leaves(trained))
assert all(a.dtype == b.dtype and np.array_equal(np.asarray(a), b) for a, b in leaves)     # bit for bit
assert all(dict(leaf.sharding.mesh.shape) == {"data": 8, "model": 1} for leaf in jax.tree.leaves(restored))
assert restored["params"]["w1"].sharding.shard_shape((8, 16)) == (1, 16)
assert {bytes_on(state, d) for d in jax.devices()} == {180} and {bytes_on(restored, d) for d in jax.devices()} == {228}
print("PASS: dist-06")
