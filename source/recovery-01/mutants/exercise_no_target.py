# replaces: exercise-solution
# fails: exercise-test
def save_and_restore(state, directory):
    # Restores without an abstract target: orbax hands back a dict (and lists), not the NamedTuple.
    path = pathlib.Path(directory).resolve() / "state"
    checkpointer = ocp.StandardCheckpointer()
    checkpointer.save(path, state)
    checkpointer.wait_until_finished()
    restored = checkpointer.restore(path)
    checkpointer.close()
    return restored
