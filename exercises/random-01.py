# Lesson random-01: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/random-01.py (or tpu, or gpu); it ends PASS: random-01

# Random numbers as explicit state: keys in, numbers out, new keys derived on purpose.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import numpy as np


def init_and_masks(key, num_steps):
    init_key, dropout_key = jax.random.split(key)
    weights = jax.random.normal(init_key, (3, 2))
    masks = [jax.random.bernoulli(jax.random.fold_in(dropout_key, t), 0.75, (2, 4))
             for t in range(num_steps)]
    return weights, masks


key = jax.random.key(0)
first = jax.random.uniform(key, (3,))
again = jax.random.uniform(key, (3,))
weights, masks = init_and_masks(key, 3)
weights_again, masks_again = init_and_masks(jax.random.key(0), 3)
other_weights, _ = init_and_masks(jax.random.key(1), 3)
_, dropout_key = jax.random.split(jax.random.key(0))
step_2_mask = jax.random.bernoulli(jax.random.fold_in(dropout_key, 2), 0.75, (2, 4))
kept = float(np.mean(np.stack(masks)))

print("key data:", jax.random.key_data(key))
print("uniform(key, (3,)), twice:", first, again)
print("weights:\n", weights)
for t, mask in enumerate(masks):
    print(f"mask at step {t}:", np.asarray(mask).astype(int).tolist())
print("kept fraction over the 3 masks:", kept)

assert np.array_equal(first, again)
assert np.array_equal(weights_again, weights)
assert all(np.array_equal(a, b) for a, b in zip(masks_again, masks))
assert not np.array_equal(other_weights, weights)
assert not np.array_equal(masks[0], masks[1])
assert np.array_equal(step_2_mask, masks[2])
with jax.debug_key_reuse(True):
    init_and_masks(jax.random.key(2), 3)
print("PASS: random-01")
