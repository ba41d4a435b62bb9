# replaces: practice-solution
# fails: practice-test
def checked_divide(x, y):
    # A Python assert needs a concrete bool: it raises AssertionError eagerly and cannot trace under jit.
    assert jnp.all(y != 0), "division by zero"
    return checkify.checkify(lambda a, b: a / b)(x, y)
