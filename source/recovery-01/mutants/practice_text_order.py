# replaces: practice-solution
# fails: practice-test
def latest_complete_step(directory):
    # Takes the largest NAME: as text "9" > "10" > "1", so step 9 wins over step 11.
    names = [entry.name for entry in pathlib.Path(directory).iterdir()
             if entry.is_dir() and entry.name.isdigit()]
    return int(max(names)) if names else None
