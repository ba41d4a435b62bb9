# replaces: exercise-solution
# fails: exercise-test
def save_and_restore(state, directory):
    # Saves into the given folder itself, which already exists: orbax refuses to overwrite it.
    path = pathlib.Path(directory).resolve()
    checkpointer = ocp.StandardCheckpointer()
    checkpointer.save(path, state)
    checkpointer.wait_until_finished()
    restored = checkpointer.restore(path, jax.tree.map(ocp.utils.to_shape_dtype_struct, state))
    checkpointer.close()
    return restored
