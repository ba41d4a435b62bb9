# replaces: transfer-solution
# fails: transfer-test
def count_primitive(fn, x, name):
    # A substring test instead of equality: "sin" matches sinh, "max" matches reduce_max.
    closed = jax.make_jaxpr(fn)(x)
    return sum(1 for eqn in closed.jaxpr.eqns if name in eqn.primitive.name)
