# replaces: exercise-solution
# fails: exercise-test
def save_and_restore(state, directory):
    # Makes the folder and hands the state straight back: nothing is written, nothing can resume from it.
    (pathlib.Path(directory).resolve() / "state").mkdir()
    return state
