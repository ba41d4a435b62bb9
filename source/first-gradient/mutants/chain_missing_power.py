# replaces: chain-solution
# fails: chain-test
def chain_slope(x):
    # Forgets the outer power rule's factor 3 (differentiates u**3 as u**2).
    u = x ** 2 - 2.0
    return u ** 2 * (2.0 * x)
