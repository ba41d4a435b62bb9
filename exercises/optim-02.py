# Lesson optim-02: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/optim-02.py (or tpu, or gpu); it ends PASS: optim-02

# Optax: an optimizer is a chain of gradient transformations, each a pair of pure functions
# init(params) -> state and update(grads, state, params) -> (updates, state).
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins

import jax
import jax.numpy as jnp
import optax

params = {"w": jnp.array([1.0, -2.0]), "b": jnp.float32(0.5)}
grads = {"w": jnp.array([4.0, 2.0]), "b": jnp.float32(-1.0)}

# 1. The contract, with momentum: m = g + 0.9 m, updates = -0.1 m.
sgd_momentum = optax.sgd(learning_rate=0.1, momentum=0.9)
state = sgd_momentum.init(params)
u1, state = sgd_momentum.update(grads, state, params)
u2, state = sgd_momentum.update(grads, state, optax.apply_updates(params, u1))
print("sgd(0.1, momentum=0.9), w updates 1 and 2:", [round(v, 4) for v in u1["w"].tolist()],
      [round(v, 4) for v in u2["w"].tolist()])

# 2. A real optimizer: clip the whole gradient, then AdamW with a warmup-cosine learning rate
#    kept in the state by inject_hyperparams.
schedule = optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value=0.1, warmup_steps=5,
                                              decay_steps=60, end_value=0.001)
optimizer = optax.chain(
    optax.clip_by_global_norm(1.0),
    optax.inject_hyperparams(optax.adamw)(learning_rate=schedule, weight_decay=0.01),
)

# 3. Train y = 2 x0 - x1 + 0.5 with step(state, batch) -> (new_state, loss).
x_data = jnp.array([[0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [2.0, -1.0],
                    [-1.0, 2.0], [0.5, 0.5], [-2.0, -1.0], [3.0, 1.0]])
y_data = x_data @ jnp.array([2.0, -1.0]) + 0.5


def loss_fn(p, batch):
    x, y = batch
    return jnp.mean((jnp.dot(x, p["w"], precision="highest") + p["b"] - y) ** 2)


@jax.jit
def train_step(carry, batch):
    p, opt_state = carry
    loss, g = jax.value_and_grad(loss_fn)(p, batch)
    updates, opt_state = optimizer.update(g, opt_state, p)
    return (optax.apply_updates(p, updates), opt_state), loss


carry, losses, lrs = (params, optimizer.init(params)), [], []
for t in range(60):
    carry, loss = train_step(carry, (x_data, y_data))
    losses.append(float(loss))
    lrs.append(float(carry[1][1].hyperparams["learning_rate"]))   # the lr this update used
    if t == 0:
        after_first = carry[0]
fitted, final_state = carry
print("learning rate used by updates 1-7:", [round(lr, 4) for lr in lrs[:7]], "... update 60:", round(lrs[-1], 5))
print("loss at steps 0, 5, 20, 59:", [round(losses[t], 4) for t in (0, 5, 20, 59)])
print("fitted w:", [round(v, 3) for v in fitted["w"].tolist()], "b:", round(float(fitted["b"]), 3))

assert jnp.allclose(u1["w"], -0.1 * grads["w"]) and jnp.allclose(u2["w"], -0.19 * grads["w"])   # a sum, not an average
assert jnp.array_equal(after_first["w"], params["w"])          # update 1 used lr(0) = 0
assert jnp.allclose(jnp.array(lrs[:7]), schedule(jnp.arange(7)))   # update k uses lr(k - 1)
assert int(final_state[1].count) == 60
assert losses[-1] < 1e-3 * losses[0]
print("PASS: optim-02")
