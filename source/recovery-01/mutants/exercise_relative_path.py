# replaces: exercise-solution
# fails: exercise-test
def save_and_restore(state, directory):
    # Passes the folder on as given: a relative path reaches orbax, which needs absolute paths.
    path = pathlib.Path(directory) / "state"
    checkpointer = ocp.StandardCheckpointer()
    checkpointer.save(path, state)
    checkpointer.wait_until_finished()
    restored = checkpointer.restore(path, jax.tree.map(ocp.utils.to_shape_dtype_struct, state))
    checkpointer.close()
    return restored
