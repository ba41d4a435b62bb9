# Lesson welcome-cpu: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/welcome-cpu.py (or tpu, or gpu); it ends PASS: welcome-cpu

# welcome-cpu as one program: four virtual CPU devices, a (4, 2) array split by rows, 2x + 1 on it.
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")     # a platform chosen outside this file wins
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "4")  # read once, at `import jax`: four CPU devices

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

devices = jax.devices()  # the backend starts here, with four CPU devices
if len(devices) < 4:
    raise RuntimeError(f"this program needs four devices in one process, but JAX started {len(devices)}: "
                       "run it in a fresh process (restart the kernel), or on the CPU (JAX_PLATFORMS=cpu)")

# Step 1: a mesh of four devices along one Explicit axis "data"; rows split, or a full copy each.
mesh = jax.make_mesh((4,), ("data",), axis_types=(AxisType.Explicit,), devices=devices[:4])
rows = NamedSharding(mesh, P("data", None))
replicated = NamedSharding(mesh, P())

# Step 2: place the host array with its rows split, and compute 2x + 1 with both placements stated.
host = np.arange(8, dtype=np.float32).reshape(4, 2)
x = jax.device_put(host, rows)
affine = jax.jit(lambda a: 2 * a + 1, in_shardings=rows, out_shardings=rows)
y = affine(x)
y.block_until_ready()  # wait until the devices have finished

# Step 3: one line per shard, then the checks: the values against NumPy, the placement against the spec.
print("JAX", jax.__version__, "| platform", jax.default_backend(), "| processes", jax.process_count(),
      "| devices", len(devices))
for shard in x.addressable_shards:
    print(f"device {shard.device.id}  index {shard.index}  local shape {shard.data.shape}  "
          f"values {np.asarray(shard.data).tolist()}")
print("global shape:", x.shape, "| result:", np.asarray(y).tolist())

copies = jax.device_put(host, replicated)
print("replicated: local shapes", [shard.data.shape for shard in copies.addressable_shards],
      "| bytes per device", [shard.data.nbytes for shard in copies.addressable_shards])
try:
    jax.device_put(np.arange(10, dtype=np.float32).reshape(5, 2), rows)
except ValueError as err:
    print("five rows over four devices:", type(err).__name__)
else:
    raise AssertionError("five rows should not split evenly over four devices")

np.testing.assert_array_equal(np.asarray(y), 2 * host + 1)                    # the values
assert x.shape == (4, 2) and not x.is_fully_replicated                        # the placement
assert [shard.data.shape for shard in x.addressable_shards] == [(1, 2)] * 4
assert [shard.data.shape for shard in y.addressable_shards] == [(1, 2)] * 4
assert copies.is_fully_replicated and [s.data.shape for s in copies.addressable_shards] == [(4, 2)] * 4
print("PASS: welcome-cpu")
