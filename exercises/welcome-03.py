# Lesson welcome-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/welcome-03.py (or tpu, or gpu); it ends PASS: welcome-03

# welcome-03 as one program: a prediction on the platform you require, its NumPy reference, a receipt.
import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")      # read at `import jax`; a value set outside wins
os.environ.setdefault("JAX_NUM_CPU_DEVICES", "2")  # as in the notebook (affects only the CPU backend)

import json
import platform

import jax
import jax.numpy as jnp
import jaxlib
import numpy as np

# Step 1: the platform we require, asked for by name: RuntimeError if JAX has none of it.
requested = os.environ.get("COURSE_EXPECT_PLATFORM") or os.environ.get("JAX_PLATFORMS") or "cpu"
requested = requested.split(",")[0].strip().lower()   # "tpu,cpu" is a priority list: expect "tpu"
devices = jax.devices(requested)
device = devices[0]

# Step 2: inputs that are exact in float32 and bfloat16, committed to that device; a completed result.
x_host = np.arange(24, dtype=np.float32).reshape(8, 3) / 8
w_host = np.array([0.5, -0.25, 1.0], dtype=np.float32)
bias = np.float32(0.125)


@jax.jit
def affine(x, w, b):
    # Full float32 products everywhere; a TPU's fast default may use bfloat16 passes.
    return jnp.matmul(x, w, precision="highest") + b


x = jax.device_put(x_host, device)
w = jax.device_put(w_host, device)
y = affine(x, w, bias).block_until_ready()
reference = x_host @ w_host + bias

# Step 3: the receipt, next to the numbers.
TOLERANCE = 1e-6   # the inputs are exact in float32 and bfloat16, so any error at all is a bug
y_host = np.asarray(y)
receipt = {
    "requested": requested,
    "observed": jax.default_backend(),
    "output_platforms": sorted({d.platform for d in y.devices()}),
    "device_kinds": sorted({d.device_kind for d in jax.devices()}),
    "device_count": jax.device_count(),
    "process_index": jax.process_index(),
    "process_count": jax.process_count(),
    "jax": jax.__version__,
    "jaxlib": jaxlib.__version__,
    "python": platform.python_version(),
    "shape": list(y.shape),
    "dtype": str(y.dtype),
    "max_abs_error": float(np.max(np.abs(y_host - reference))),
}
print("receipt, one JSON value per field:")
for field, value in receipt.items():
    print(f"  {field:<16} {json.dumps(value)}")
print("completed prediction:", y_host.tolist())

# Concept 1's invariants, computed on the same device: a lower bias, and the rows reversed.
lowered = affine(x, w, np.float32(-0.25)).block_until_ready()
flipped = affine(jax.device_put(x_host[::-1], device), w, bias).block_until_ready()
print("bias -1/4:     first", float(lowered[0]), "| shifts", sorted(set((np.asarray(lowered) - y_host).tolist())))
print("rows reversed: first", float(flipped[0]), "| last", float(flipped[-1]))

assert receipt["observed"] == requested, f"asked for {requested}, JAX runs on {receipt['observed']}"
assert receipt["output_platforms"] == [requested], f"the result lives on {receipt['output_platforms']}"
assert y.devices() == lowered.devices() == flipped.devices() == {device}, "a result left the required device"
assert receipt["shape"] == [8] and receipt["dtype"] == "float32"
assert receipt["max_abs_error"] <= TOLERANCE, f"JAX and NumPy differ by {receipt['max_abs_error']}"
np.testing.assert_allclose(np.asarray(lowered), reference - 0.375, rtol=0, atol=TOLERANCE)
np.testing.assert_allclose(np.asarray(flipped), reference[::-1], rtol=0, atol=TOLERANCE)
print("PASS: welcome-03")
