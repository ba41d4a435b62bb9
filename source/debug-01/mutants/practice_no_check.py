# replaces: practice-solution
# fails: practice-test
def checked_divide(x, y):
    # checkify.checkify with no check inside (and only user checks enabled): err never reports anything.
    return checkify.checkify(lambda a, b: a / b)(x, y)
