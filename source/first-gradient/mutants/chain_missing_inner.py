# replaces: chain-solution
# fails: chain-test
def chain_slope(x):
    # Missing chain-rule factor: forgets du/dx = 2x (which is 1 at the visible point 0.5).
    u = x ** 2 - 2.0
    return 3.0 * u ** 2
