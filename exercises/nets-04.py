# Lesson nets-04: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/nets-04.py (or tpu, or gpu); it ends PASS: nets-04

# Attention from scratch: scores, a softmax over the keys, a weighted average of the values;
# a causal mask; several heads, checked against jax.nn.dot_product_attention.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp
import numpy as np

# Two queries attend to three keys (d = 4, so sqrt(d) = 2 and the scores are exact).
q = jnp.array([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, -1.0]])
k = jnp.array([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, -1.0, -1.0], [-1.0, -1.0, -1.0, -1.0]])
v = jnp.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]])
d = q.shape[-1]
scores = q @ k.T / jnp.sqrt(d)
weights = jax.nn.softmax(scores, axis=-1)
outputs = weights @ v
print("scores (Tq, Tk):", scores.shape, scores.tolist())
print("weights, rows sum to 1:", [[round(w, 4) for w in row] for row in weights.tolist()])
print("outputs (Tq, dv):", outputs.shape, [[round(o, 4) for o in row] for row in outputs.tolist()])

# Causal self-attention of the three key tokens: query i sees keys 0 ... i, the diagonal included.
allowed = jnp.array([[True, False, False], [True, True, False], [True, True, True]])
self_weights = jax.nn.softmax(jnp.where(allowed, k @ k.T / jnp.sqrt(d), -jnp.inf), axis=-1)
self_outputs = self_weights @ v
print("causal weights:", [[round(w, 4) for w in row] for row in self_weights.tolist()])
print("causal outputs:", [[round(o, 4) for o in row] for row in self_outputs.tolist()])


@jax.jit
def causal_heads(q, k, v):
    """Causal attention in every head of (T, N, H) arrays: our formula, and the library's."""
    t, head_dim = q.shape[0], q.shape[-1]
    causal = jnp.arange(t)[None, :] <= jnp.arange(t)[:, None]               # key j <= query i
    head_scores = jnp.einsum("tnh,snh->nts", q, k) / jnp.sqrt(head_dim)      # (N, T, T)
    head_weights = jax.nn.softmax(jnp.where(causal, head_scores, -jnp.inf), axis=-1)
    ours = jnp.einsum("nts,snh->tnh", head_weights, v)                       # (T, N, H)
    return ours, jax.nn.dot_product_attention(q, k, v, is_causal=True)


# Two heads of size 4 over 5 tokens, in the library's (T, N, H) layout: 3 * 5 * 2 * 4 numbers drawn flat
# (the same numbers as a (3, 5, 2, 4) draw, quicker to compile on CPU), then cut into q, k and v.
mq, mk, mv = jax.random.normal(jax.random.key(0), (3 * 5 * 2 * 4,)).reshape(3, 5, 2, 4)   # each (T, N, H)
with jax.default_matmul_precision("highest"):
    ours, library = causal_heads(mq, mk, mv)
gap = float(np.max(np.abs(np.asarray(ours) - np.asarray(library))))
print("2 heads, 5 tokens: output", library.shape, "| largest difference from the library:", f"{gap:.1e}")

assert np.array_equal(np.asarray(scores), [[2.0, 0.0, -2.0], [0.0, 2.0, 0.0]])
assert np.allclose(np.asarray(weights).sum(axis=-1), 1.0)
assert np.allclose(np.asarray(outputs), [[0.8509, 0.1014], [0.0, 0.6805]], atol=5e-3)   # a TPU's matmul: bfloat16
assert np.all(np.asarray(self_weights)[~np.asarray(allowed)] == 0.0)
assert np.array_equal(np.asarray(self_outputs)[0], np.asarray(v)[0])
assert library.shape == (5, 2, 4) and gap < 1e-5
print("PASS: nets-04")
