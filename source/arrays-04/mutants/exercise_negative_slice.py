# replaces: exercise-solution
# fails: exercise-test
def zero_tail(values, count):
    # values[-count:] selects the whole array when count == 0 (because -0 == 0).
    return values.at[-count:].set(0)
