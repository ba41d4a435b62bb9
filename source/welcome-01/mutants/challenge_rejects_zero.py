# replaces: challenge-solution
# fails: challenge-test
def sum_report(n):
    # The guard is off by one: n = 0 is valid (an empty sum is 0, and so is 0 * (0 - 1) / 2).
    if n <= 0:
        raise ValueError("n must be positive")
    predicted = float(n * (n - 1) // 2)
    measured = float(jnp.arange(n, dtype=jnp.float32).sum())
    return {"n": n, "predicted": predicted, "measured": measured, "agree": predicted == measured}
