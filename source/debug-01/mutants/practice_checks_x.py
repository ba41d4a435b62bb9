# replaces: practice-solution
# fails: practice-test
def checked_divide(x, y):
    # Checks the numerator: zeros in x are harmless, zeros in y go unreported.
    def divide(x, y):
        checkify.check(jnp.all(x != 0), "division by zero")
        return x / y

    return checkify.checkify(divide)(x, y)
