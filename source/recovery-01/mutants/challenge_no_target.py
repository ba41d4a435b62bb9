# replaces: challenge-solution
# fails: challenge-test
def restore_latest(directory, template):
    # Restores without args: the manager hands back a dict, not the template's NamedTuple.
    manager = ocp.CheckpointManager(pathlib.Path(directory).resolve())
    step = manager.latest_step()
    if step is None:
        manager.close()
        return None, template
    state = manager.restore(step)
    manager.close()
    return step, state
