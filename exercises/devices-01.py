# Lesson devices-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/devices-01.py (or tpu, or gpu); it ends PASS: devices-01

# Devices and dtypes: jax.device_put commits data to a device and computation follows it;
# a Python scalar is weakly typed and adopts the dtype of the array it meets.
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "2")    # read once, when JAX starts: before the import

import jax
import jax.numpy as jnp
import numpy as np

devices = jax.devices()
if len(devices) < 2:
    raise RuntimeError(f"this program needs 2 devices, but JAX started with {len(devices)}: run it in a "
                       "fresh process (in a notebook, restart the kernel) with JAX_PLATFORMS=cpu")
first, target = devices[0], devices[1]
print("backend:", jax.default_backend(), "| device ids:", [device.id for device in devices])

host = np.arange(6, dtype=np.float32).reshape(2, 3)  # NumPy, in host memory
placed = jax.device_put(host, target)                # committed to the second device
scaled = placed * 0.5                                # a weak Python float: stays float32
offset = jnp.ones(3, dtype=jnp.int32)                # uncommitted, on the default device
total = scaled + offset                              # int32 meets float32: float32, on target
for name, value in [("placed", placed), ("scaled", scaled), ("offset", offset), ("total", total)]:
    print(f"{name:7s} on device {value.device.id}, committed={value.committed!s:5s} dtype={value.dtype}")
print("total =", total.tolist())

elsewhere = jax.device_put(host, first)              # committed to the first device
try:
    placed + elsewhere
    refused = None
except ValueError as err:
    refused = str(err).split(".")[0]
print("committed to device 1 + committed to device 0 -> ValueError:", refused)
moved = placed + jax.device_put(elsewhere, target)   # the fix: move one operand explicitly
print("after moving one operand: device", moved.device.id, "| committed:", moved.committed)

f16 = jnp.ones(3, dtype=jnp.float16)
i8 = jnp.array([100], dtype=jnp.int8)
results = {
    "float16 array * 0.5": f16 * 0.5,
    "float16 array * np.float32(2.0)": f16 * np.float32(2.0),
    "int32 array + 0.5": offset + 0.5,
    "int8 array + 100": i8 + 100,
}
for label, value in results.items():
    print(f"{label:32s} -> {str(value.dtype):8s} {value.tolist()}")

assert placed.committed and placed.device == target
assert not offset.committed and offset.device == first
assert total.committed and total.device == target and total.dtype == jnp.float32
assert total.tolist() == [[1.0, 1.5, 2.0], [2.5, 3.0, 3.5]]
assert refused is not None and moved.committed and moved.device == target
assert [str(value.dtype) for value in results.values()] == ["float16", "float32", "float32", "int8"]
assert results["int8 array + 100"].tolist() == [-56]   # 200 does not fit in int8: it wraps around
print("PASS: devices-01")
