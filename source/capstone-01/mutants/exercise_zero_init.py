# replaces: exercise-solution
# fails: exercise-test-training
# Every kernel and embedding starts at zero, as the bigram table did: the first loss is exactly ln V, and every gradient is zero.
# ==== The capstone's reference model ====================================================================
# The config, the modules, the loss, the training step and the batches. capstone-02 (the model on a 2 x 4
# mesh of devices) and capstone-03 (training that survives a crash) start from this cell, as given code.
# ========================================================================================================


@dataclasses.dataclass(frozen=True)
class Config:
    """The sizes of a decoder-only Transformer."""
    vocab_size: int       # V: how many distinct tokens
    context: int = 64     # T: the longest sequence the model reads (the rows of its position table)
    dim: int = 64         # d: the width of every position's vector
    heads: int = 4        # H: attention heads, of dim // heads dimensions each
    layers: int = 2       # L: Transformer blocks
    hidden: int = 256     # the width of each block's MLP
    tied: bool = False    # True: the output layer reuses token_embed's table, and there is no head


INIT = nnx.initializers.zeros   # every kernel and embedding; biases start at 0, LayerNorm scales at 1


class CausalSelfAttention(nnx.Module):
    """Multi-head self-attention in which position t reads positions 0..t only."""

    def __init__(self, config, *, rngs):
        self.heads = config.heads
        self.query = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)
        self.key = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)
        self.value = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)
        self.out = nnx.Linear(config.dim, config.dim, kernel_init=INIT, rngs=rngs)

    def __call__(self, x):
        """x: (..., T, dim) -> (..., T, dim)."""
        *batch, T, dim = x.shape
        head_dim = dim // self.heads
        split = lambda a: a.reshape(*batch, T, self.heads, head_dim)          # head h: columns h*head_dim, ...
        q, k, v = split(self.query(x)), split(self.key(x)), split(self.value(x))
        scores = jnp.einsum("...qhd,...khd->...hqk", q, k) / math.sqrt(head_dim)
        causal = jnp.tril(jnp.ones((T, T), dtype=bool))                        # row t: columns 0..t
        weights = jax.nn.softmax(jnp.where(causal, scores, -jnp.inf), axis=-1)  # masked BEFORE the softmax
        mixed = jnp.einsum("...hqk,...khd->...qhd", weights, v)
        return self.out(mixed.reshape(*batch, T, dim))


class MLP(nnx.Module):
    """Position by position: dim -> hidden -> dim, with a GELU between."""

    def __init__(self, config, *, rngs):
        self.fc1 = nnx.Linear(config.dim, config.hidden, kernel_init=INIT, rngs=rngs)
        self.fc2 = nnx.Linear(config.hidden, config.dim, kernel_init=INIT, rngs=rngs)

    def __call__(self, x):
        return self.fc2(jax.nn.gelu(self.fc1(x)))


class Block(nnx.Module):
    """A pre-norm block: x + attn(ln1(x)), then that plus mlp(ln2(that))."""

    def __init__(self, config, *, rngs):
        self.ln1 = nnx.LayerNorm(config.dim, rngs=rngs)
        self.attn = CausalSelfAttention(config, rngs=rngs)
        self.ln2 = nnx.LayerNorm(config.dim, rngs=rngs)
        self.mlp = MLP(config, rngs=rngs)

    def __call__(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))


class Transformer(nnx.Module):
    """Tokens (..., T), T <= config.context -> logits (..., T, vocab_size); row t scores the token after t."""

    def __init__(self, config, *, rngs):
        self.config = config
        self.token_embed = nnx.Embed(config.vocab_size, config.dim, embedding_init=INIT, rngs=rngs)
        self.position_embed = nnx.Embed(config.context, config.dim, embedding_init=INIT, rngs=rngs)
        self.blocks = nnx.List([Block(config, rngs=rngs) for _ in range(config.layers)])
        self.ln_f = nnx.LayerNorm(config.dim, rngs=rngs)
        if not config.tied:
            self.head = nnx.Linear(config.dim, config.vocab_size, use_bias=False, kernel_init=INIT, rngs=rngs)

    def __call__(self, tokens):
        x = self.token_embed(tokens) + self.position_embed(jnp.arange(tokens.shape[-1]))
        for block in self.blocks:
            x = block(x)
        x = self.ln_f(x)
        return self.token_embed.attend(x) if self.config.tied else self.head(x)


def loss_fn(model, inputs, targets):
    """Mean next-token cross-entropy over every position (Step 2's)."""
    return optax.softmax_cross_entropy_with_integer_labels(model(inputs), targets).mean()


def train_step(model, optimizer, inputs, targets):
    """One optimizer step; returns the loss before it (Step 2's). Compile it with nnx.jit."""
    loss, grads = nnx.value_and_grad(loss_fn)(model, inputs, targets)
    optimizer.update(model, grads)
    return loss


@functools.partial(jax.jit, static_argnames=("batch_size", "context"))
def get_batch(data, key, step, batch_size, context):
    """Batch `step` (Step 1's): windows of context + 1 tokens at starts drawn with fold_in(key, step)."""
    starts = jax.random.randint(jax.random.fold_in(key, step), (batch_size,), 0, data.shape[0] - context)
    windows = data[starts[:, None] + jnp.arange(context + 1)]
    return windows[:, :-1], windows[:, 1:]
# ==== End of the reference model ========================================================================
