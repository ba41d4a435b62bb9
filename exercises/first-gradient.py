# Lesson first-gradient: its "Run the example" program, generated from the lesson notebook.
# Run it with: JAX_PLATFORMS=cpu python exercises/first-gradient.py (or tpu, or gpu); it ends PASS: first-gradient

# Your first gradient: jax.grad turns f into f', which predicts how f changes near a point;
# the chain rule and a finite difference give independent checks of what it returns.
import os
os.environ.setdefault("JAX_PLATFORMS", "cpu")  # a value set earlier wins

import jax
import jax.numpy as jnp


def f(x):
    return x ** 2


derivative = jax.grad(f)                       # a new function, x -> 2x
x0, delta = 3.0, 0.01
slope = float(derivative(x0))
predicted = f(x0) + slope * delta              # the tangent's prediction
actual = f(x0 + delta)                         # Python floats: 3.01 ** 2
print(f"slope at 3: {slope} | predicted f(3.01): {predicted:.4f} | actual: {actual:.4f}"
      f" | left out: {actual - predicted:.1e}")
slopes = {point: float(derivative(point)) for point in (3.0, -3.0, 0.0)}
print("slopes of x**2:", slopes)


def composed(x):
    u = 3.0 * x + 1.0                          # inner step, slope 3
    return u ** 2                              # outer step, slope 2u


chain = {point: float(jax.grad(composed)(point)) for point in (-1.0, 0.0, 2.0)}
for point, value in chain.items():
    print(f"chain rule at x = {point:4}: jax.grad {value:6}, by hand 6(3x + 1) = {6.0 * (3.0 * point + 1.0):6}")


def cube(x):
    return x ** 3


x = jnp.float32(3.0)                           # exact derivative 3 * 3**2 = 27
forward = {}
for h in (1e-1, 1e-3, 1e-7):
    forward[h] = float((cube(x + h) - cube(x)) / h)
    print(f"forward difference of x**3 at 3, float32, h = {h:.0e}: {forward[h]:.6f}")

try:
    derivative(3)                              # an integer input
    integer_error = None
except TypeError as err:
    integer_error = str(err)
print("grad at the integer 3 -> TypeError:", integer_error.split(". ")[0])

assert slopes == {3.0: 6.0, -3.0: -6.0, 0.0: 0.0}
assert abs((actual - predicted) - delta ** 2) < 1e-9    # what the tangent leaves out: delta**2
assert chain == {-1.0: -12.0, 0.0: 6.0, 2.0: 42.0}
assert abs(forward[1e-1] - 27.0) > abs(forward[1e-3] - 27.0)   # a smaller step helps...
assert abs(forward[1e-3] - 27.0) < 0.05
assert forward[1e-7] == 0.0                    # ...until x + h rounds back to x in float32
assert integer_error is not None and "int32" in integer_error
print("PASS: first-gradient")
