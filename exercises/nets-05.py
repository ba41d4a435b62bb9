# Lesson nets-05: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/nets-05.py (or tpu, or gpu); it ends PASS: nets-05

# A tiny Transformer language model: characters in, a probability for the next character out.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import codecs
import contextlib
import io
import math

import jax
import jax.numpy as jnp
import numpy as np
import optax

# Step 1: characters become token ids; a window of CONTEXT + 1 tokens gives CONTEXT predictions.
with contextlib.redirect_stdout(io.StringIO()):      # `import this` prints the Zen when first imported
    import this
text = codecs.decode(this.s, "rot13")
vocab = sorted(set(text))
char_to_id = {c: i for i, c in enumerate(vocab)}
encode = lambda s: np.array([char_to_id[c] for c in s], dtype=np.int32)
decode = lambda ids: "".join(vocab[i] for i in np.asarray(ids).tolist())
data = encode(text)
CONTEXT, DIM, HEADS, HIDDEN = 32, 32, 2, 128
window = encode("Beautiful is ")
inputs, targets = window[:-1], window[1:]
print(f"{len(text)} characters, vocabulary of {len(vocab)}")
print(f"inputs {decode(inputs)!r} -> targets {decode(targets)!r}")

# Step 2: one Transformer block; row t of the logits scores the token at position t + 1.
SHAPES = {"embed": (len(vocab), DIM), "position": (CONTEXT, DIM),
          "query": (DIM, DIM), "key": (DIM, DIM), "value": (DIM, DIM), "attn_out": (DIM, DIM),
          "mlp_in": (DIM, HIDDEN), "mlp_out": (HIDDEN, DIM)}


def init_params(key):
    sizes = [math.prod(shape) for shape in SHAPES.values()]
    normal = jax.random.normal(key, (sum(sizes),))          # one draw, cut into the matrices below
    params = {}
    for (name, shape), chunk in zip(SHAPES.items(), jnp.split(normal, np.cumsum(sizes)[:-1])):
        scale = 0.1 if name in ("embed", "position") else 1.0 / math.sqrt(shape[0])   # 1/sqrt(fan_in)
        params[name] = scale * chunk.reshape(shape)
    params["unembed"] = jnp.zeros((DIM, len(vocab)))        # every logit starts at exactly 0
    return params


def apply(params, tokens, causal=True):
    T = tokens.shape[0]
    x = params["embed"][tokens] + params["position"][:T]
    heads = lambda a: a.reshape(T, HEADS, DIM // HEADS)
    q, k, v = heads(x @ params["query"]), heads(x @ params["key"]), heads(x @ params["value"])
    scores = jnp.einsum("qhd,khd->hqk", q, k) / math.sqrt(DIM // HEADS)
    if causal:
        scores = jnp.where(jnp.tril(jnp.ones((T, T), dtype=bool)), scores, -jnp.inf)
    mixed = jnp.einsum("hqk,khd->qhd", jax.nn.softmax(scores, axis=-1), v).reshape(T, DIM)
    x = x + mixed @ params["attn_out"]
    x = x + jax.nn.relu(x @ params["mlp_in"]) @ params["mlp_out"]
    return x @ params["unembed"]


def batch_loss(params, inputs, targets):
    logits = jax.vmap(apply, in_axes=(None, 0))(params, inputs)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


# Training: 300 Adam steps on batches of 16 random windows, as one compiled scan.
@jax.jit
def train(params, data, starts, lr):
    optimizer = optax.adam(lr)

    def step(carry, batch_starts):
        params, opt_state = carry
        windows = data[batch_starts[:, None] + jnp.arange(CONTEXT + 1)]
        loss, grads = jax.value_and_grad(batch_loss)(params, windows[:, :-1], windows[:, 1:])
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), loss

    (params, _), losses = jax.lax.scan(step, (params, optimizer.init(params)), starts)
    return params, losses


next_logits = jax.jit(apply, static_argnames="causal")


# Step 3: sample one position at a time into a fixed-size buffer, with a key per position.
def generate(params, prompt, key, one_key=False):
    """Fill a CONTEXT-long buffer after `prompt`; position t draws with fold_in(key, t), or always with `key`."""
    buffer = jnp.zeros(CONTEXT, dtype=jnp.int32).at[:len(prompt)].set(prompt)
    for t in range(len(prompt), CONTEXT):
        position_key = key if one_key else jax.random.fold_in(key, t)
        buffer = buffer.at[t].set(jax.random.categorical(position_key, next_logits(params, buffer)[t - 1]))
    return buffer


params0 = init_params(jax.random.key(1))
train_starts = jax.random.randint(jax.random.key(2), (300, 16), 0, len(data) - CONTEXT)
params, losses = train(params0, data, train_starts, 0.02)
losses = np.asarray(losses)                                                 # 300 batch losses, read on the host
print("batch loss at steps 0, 50, 100, 200, 299:", [round(float(losses[i]), 3) for i in (0, 50, 100, 200, 299)])
print("mean batch loss of the last 50 steps:", round(float(losses[-50:].mean()), 3))

prompt = encode("Beautiful is ")
text_sample = generate(params, prompt, jax.random.key(3))
replay = generate(params, prompt, jax.random.key(3))
uniform_fold_in = generate(params0, prompt, jax.random.key(4))              # params0: every logit is 0
uniform_one_key = generate(params0, prompt, jax.random.key(4), one_key=True)
print("sample:               ", repr(decode(text_sample)))
print("uniform, fold_in keys:", repr(decode(uniform_fold_in)))
print("uniform, one key:     ", repr(decode(uniform_one_key)))

assert np.array_equal(inputs[1:], targets[:-1])                        # targets are the inputs shifted by one
assert abs(float(losses[0]) - math.log(len(vocab))) < 5e-4             # zero logits: the loss is ln 45 (to a TPU's log)
assert float(losses[-50:].mean()) < 1.0                                # well below the bigram level (1.97)
assert decode(text_sample).startswith("Beautiful is ") and np.array_equal(text_sample, replay)
assert len(set(decode(uniform_one_key)[len(prompt):])) == 1            # one key: the same draw every time
assert len(set(decode(uniform_fold_in)[len(prompt):])) > 5             # a key per position: varied draws
print("PASS: nets-05")
