# Lesson dist-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/dist-01.py (or tpu, or gpu); it ends PASS: dist-01

# Meshes and shardings: name 8 devices as a 2 x 4 grid, say which array dimension is split along
# which grid axis, and check every device's block against the local-shape rule.
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

mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit, AxisType.Explicit))
print("mesh:", dict(mesh.shape), "| device ids:", [[device.id for device in row] for row in mesh.devices])

x = jnp.arange(8 * 16, dtype=jnp.float32).reshape(8, 16)        # 512 bytes
host = np.asarray(x)
# spec, local shape by the rule, bytes stored over all devices
expected = [(P("x", "y"), (4, 4), 512), (P("y", "x"), (2, 8), 512), (P(("x", "y")), (1, 16), 512),
            (P(None, "y"), (8, 4), 1024), (P(), (8, 16), 4096)]
for spec, local, stored in expected:
    placed = jax.device_put(x, NamedSharding(mesh, spec))
    shapes = {shard.data.shape for shard in placed.addressable_shards}
    total = sum(shard.data.nbytes for shard in placed.addressable_shards)
    print(f"{str(spec):16} type {str(jax.typeof(placed)):22} local {local}  stored {total:4} bytes")
    assert placed.shape == (8, 16) and shapes == {local} and total == stored
    for shard in placed.addressable_shards:
        assert np.array_equal(np.asarray(shard.data), host[shard.index])

# Two mesh axes on one dimension: the first named axis is the major one.
v = jnp.arange(8)
for spec, rows in [(P(("x", "y")), [0, 1, 2, 3, 4, 5, 6, 7]), (P(("y", "x")), [0, 2, 4, 6, 1, 3, 5, 7])]:
    placed = jax.device_put(v, NamedSharding(mesh, spec))
    held = {shard.device.id: int(shard.data[0]) for shard in placed.addressable_shards}
    print(f"{str(spec):16} device d holds element:", [held[d] for d in range(8)])
    assert [held[d] for d in range(8)] == rows

# 7 rows do not split in 2: pad to 8 and mask the padding row.
rows7 = jnp.arange(7 * 16, dtype=jnp.float32).reshape(7, 16)
try:
    jax.device_put(rows7, NamedSharding(mesh, P("x")))
    refused = False
except ValueError:
    refused = True
padded = jax.device_put(jnp.pad(rows7, ((0, -7 % 2), (0, 0))), NamedSharding(mesh, P("x")))
mask = jnp.arange(padded.shape[0]) < 7
total = float(jnp.where(mask[:, None], padded, 0.0).sum())
print("7 rows over 'x' refused:", refused, "| padded:", jax.typeof(padded), "| masked sum:", total)
assert refused and padded.shape == (8, 16) and total == float(host[:7].sum()) == 6216.0
print("PASS: dist-01")
