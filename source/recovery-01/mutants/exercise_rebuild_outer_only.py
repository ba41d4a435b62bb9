# replaces: exercise-solution
# fails: exercise-test
def save_and_restore(state, directory):
    # Rebuilds the outer NamedTuple from the dict by hand: optax's state inside stays a list of dicts.
    path = pathlib.Path(directory).resolve() / "state"
    checkpointer = ocp.StandardCheckpointer()
    checkpointer.save(path, state)
    checkpointer.wait_until_finished()
    restored = type(state)(**checkpointer.restore(path))
    checkpointer.close()
    return restored
