# replaces: transfer-solution
# fails: transfer-test
def float32_increment(large, small):
    # Python floats are 64-bit: this measures float64 rounding, not float32.
    return float((large + small) - large)
