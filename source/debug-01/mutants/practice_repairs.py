# replaces: practice-solution
# fails: practice-test
def checked_divide(x, y):
    # Reports, but also "repairs" the quotient to 0 where y is 0: the caller no longer gets x / y.
    def divide(x, y):
        checkify.check(jnp.all(y != 0), "division by zero")
        return jnp.where(y == 0, 0.0, x / y)

    return checkify.checkify(divide)(x, y)
