# replaces: transfer-solution
# fails: transfer-test
def count_primitive(fn, x, name):
    # Counts the text: "sin" inside "sinh", "max" inside "reduce_max", and nested jaxprs too.
    return str(jax.make_jaxpr(fn)(x)).count(name)
