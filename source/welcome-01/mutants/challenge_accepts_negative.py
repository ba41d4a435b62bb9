# replaces: challenge-solution
# fails: challenge-test
def sum_report(n):
    # Forgets the negative case: arange(-3) is empty, yet the formula predicts 6.
    predicted = float(n * (n - 1) // 2)
    measured = float(jnp.arange(n, dtype=jnp.float32).sum())
    return {"n": n, "predicted": predicted, "measured": measured, "agree": predicted == measured}
