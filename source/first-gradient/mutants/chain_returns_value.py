# replaces: chain-solution
# fails: chain-test
def chain_slope(x):
    # Returns the function value instead of its derivative.
    return (x ** 2 - 2.0) ** 3
