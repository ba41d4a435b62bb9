"""Training throughput of the capstone Transformer on one device: the accelerator against the host CPU.

Runs capstone-02's reference model (capstone-01's Transformer, its `step_fn` and AdamW `tx`) and its
solved `tokens_per_second`, taken from source/capstone-02/capstone-02.ipynb, on the default
device and on the host CPU in the same process, so the ratio is measured in one run. Each
measurement is --steps steps after a compiled first one; --rounds measurements per device and
batch size, alternating devices after one uncounted round, report the median, min and max.

Needs only jax, flax, optax and numpy (no jaxcourse, no nbgrader), so it runs on a bare TPU host:
  JAX_PLATFORMS=tpu,cpu python3 benchmarks/capstone_tokens.py --batch 16 --batch 256
On a host with no accelerator both rows are the CPU.
Usage: python benchmarks/capstone_tokens.py [--batch B ...] [--steps 20] [--rounds 5]
"""
from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

NOTEBOOK = Path(__file__).resolve().parents[1] / "source" / "capstone-02" / "capstone-02.ipynb"
CELLS = ("text", "reference", "transfer-solution")  # the data, the model and its step, the timer


def lesson_namespace() -> dict:
    """The lesson's imports and the cells above, executed: Transformer, Config, step_fn, tx, ..."""
    cells = {cell["id"]: "".join(cell["source"]) for cell in json.loads(NOTEBOOK.read_text())["cells"]}
    # The setup cell's imports only: its device check wants the lesson's 8 CPU devices.
    imports = "\n".join(line for line in cells["setup"].splitlines() if line.startswith(("import ", "from ")))
    namespace: dict = {}
    for source in (imports, *(cells[cell_id] for cell_id in CELLS)):
        exec(compile(source, str(NOTEBOOK), "exec"), namespace)
    return namespace


def measure(ns: dict, device, batch_size: int, steps: int) -> float:
    """Tokens per second of the lesson's model trained on `device`, batch_size windows of 64 tokens."""
    jax, nnx = ns["jax"], ns["nnx"]
    with jax.default_device(device):
        model = ns["Transformer"](ns["Config"](vocab_size=len(ns["vocab"])), rngs=nnx.Rngs(0))
        optimizer = nnx.Optimizer(model, ns["tx"], wrt=nnx.Param)
        data = jax.device_put(ns["train_data"], device)
        batches = [ns["get_batch"](data, jax.random.key(1), step, batch_size, 64) for step in range(steps + 1)]
        return ns["tokens_per_second"](lambda inputs, targets: ns["step_fn"](model, optimizer, inputs, targets), batches)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--batch", type=int, action="append", help="windows per step (repeatable; default 16)")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ns = lesson_namespace()
    jax = ns["jax"]
    devices = {"default": jax.devices()[0], "host cpu": jax.devices("cpu")[0]}
    print(f"jax {jax.__version__}, flax {ns['flax'].__version__}; default device {devices['default'].device_kind}")
    for batch_size in args.batch or [16]:
        rates: dict[str, list[float]] = {name: [] for name in devices}
        for device in devices.values():  # a first round, not counted: the batch programs compile
            measure(ns, device, batch_size, 2)
        for _ in range(args.rounds):
            for name, device in devices.items():
                rates[name].append(measure(ns, device, batch_size, args.steps))
        medians = {name: statistics.median(values) for name, values in rates.items()}
        for name, values in rates.items():
            print(f"batch {batch_size:4d} x 64 tokens, {name:8s}: median {medians[name]:12,.0f} tokens/s "
                  f"(min {min(values):,.0f}, max {max(values):,.0f}, {args.rounds} x {args.steps} steps)")
        print(f"batch {batch_size:4d}: default device / host cpu = {medians['default'] / medians['host cpu']:.2f}x")


if __name__ == "__main__":
    main()
