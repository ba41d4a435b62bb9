# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # reads P(("x", "y")) as a split over x alone
