# replaces: practice-solution
# fails: practice-test
def checked_divide(x, y):
    # jnp.any where jnp.all was meant: only fails when EVERY element of y is zero.
    def divide(x, y):
        checkify.check(jnp.any(y != 0), "division by zero")
        return x / y

    return checkify.checkify(divide)(x, y)
