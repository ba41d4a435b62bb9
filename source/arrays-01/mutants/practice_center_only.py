# replaces: practice-solution
# fails: practice-test
def apply_standardizer(batch, stats):
    # Subtracts the fitted mean but forgets to divide by the fitted scale.
    mean, scale = stats
    return batch - mean
