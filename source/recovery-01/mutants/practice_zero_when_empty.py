# replaces: practice-solution
# fails: practice-test
def latest_complete_step(directory):
    # Returns 0 for a folder without checkpoints: indistinguishable from a real checkpoint at step 0.
    steps = [int(entry.name) for entry in pathlib.Path(directory).iterdir()
             if entry.is_dir() and entry.name.isdigit()]
    return max(steps, default=0)
