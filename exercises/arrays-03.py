# Lesson arrays-03: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/arrays-03.py (or tpu, or gpu); it ends PASS: arrays-03

# Pure functions and explicit inputs: every value the model uses arrives as an argument.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax
import jax.numpy as jnp


def predict(params, x):
    """Linear model: weight * x + bias, reading nothing but its arguments."""
    return params["weight"] * x + params["bias"]


x = jnp.array([0.0, 1.0, 2.0])
params = {"weight": jnp.array(2.0), "bias": jnp.array(1.0)}

# Run, replay, and change one parameter at a time in a new dictionary.
predictions = predict(params, x)
replay = predict(params, x)
bias_plus_one = predict({**params, "bias": params["bias"] + 1.0}, x)
weight_plus_one = predict({**params, "weight": params["weight"] + 1.0}, x)
print("predictions:    ", predictions)
print("with bias + 1:  ", bias_plus_one, "| change", bias_plus_one - predictions)
print("with weight + 1:", weight_plus_one, "| change", weight_plus_one - predictions)

# Two configurations side by side: the order of the calls cannot matter.
second_params = {"weight": jnp.array(-1.0), "bias": jnp.array(4.0)}
first_then_second = [predict(params, x), predict(second_params, x)]
second_then_first = [predict(second_params, x), predict(params, x)]
print("second model:   ", first_then_second[1])

# An alias is a second name for one dictionary; assigning through it changes the dictionary.
container = {"weight": jnp.array(2.0), "bias": jnp.array(1.0)}
alias = container
alias["weight"] = jnp.array(9.0)
print("aliased container weight:", float(container["weight"]))

# A global read inside a compiled function is frozen at trace time; an argument is not.
global_bias = jnp.array(1.0)


@jax.jit
def predict_with_global_bias(weight, inputs):
    return weight * inputs + global_bias


frozen_before = predict_with_global_bias(params["weight"], x)
global_bias = jnp.array(3.0)
frozen_after = predict_with_global_bias(params["weight"], x)     # same shapes: no new trace
explicit_after = jax.jit(predict)({**params, "bias": jnp.array(3.0)}, x)
print("global bias 1 -> 3, compiled:", frozen_before, "->", frozen_after)
print("explicit bias 3, compiled:   ", explicit_after)

assert jnp.array_equal(predictions, jnp.array([1.0, 3.0, 5.0]))
assert jnp.array_equal(replay, predictions)
assert jnp.array_equal(bias_plus_one - predictions, jnp.array([1.0, 1.0, 1.0]))
assert jnp.array_equal(weight_plus_one - predictions, jnp.array([0.0, 1.0, 2.0]))
assert jnp.array_equal(first_then_second[1], jnp.array([4.0, 3.0, 2.0]))
assert all(jnp.array_equal(a, b) for a, b in zip(first_then_second, second_then_first[::-1]))
assert float(params["weight"]) == 2.0 and float(params["bias"]) == 1.0   # the original is intact
assert alias is container and float(container["weight"]) == 9.0
assert jnp.array_equal(frozen_after, frozen_before)                      # still adds the old bias 1
assert jnp.array_equal(explicit_after, jnp.array([3.0, 5.0, 7.0]))
print("PASS: arrays-03")
