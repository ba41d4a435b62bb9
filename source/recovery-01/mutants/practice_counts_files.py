# replaces: practice-solution
# fails: practice-test
import os


def latest_complete_step(directory):
    # Lists every entry, files too: a file named "300" is taken for a checkpoint.
    steps = [int(name) for name in os.listdir(directory) if name.isdigit()]
    return max(steps) if steps else None
