# replaces: practice-solution
# fails: practice-test
def checked_divide(x, y):
    # The check sits outside checkify.checkify: it raises at once eagerly and cannot be staged under jit.
    checkify.check(jnp.all(y != 0), "division by zero")
    return checkify.checkify(lambda a, b: a / b)(x, y)
