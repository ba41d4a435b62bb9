# replaces: challenge-solution
# fails: challenge-test
def sum_report(n):
    # Uses n(n+1)/2, the formula for 1 + 2 + ... + n, although arange starts at 0.
    if n < 0:
        raise ValueError("n must be >= 0")
    predicted = float(n * (n + 1) // 2)
    measured = float(jnp.arange(n, dtype=jnp.float32).sum())
    return {"n": n, "predicted": predicted, "measured": measured, "agree": predicted == measured}
