# replaces: challenge-solution
# fails: challenge-test
import re


def restore_latest(directory, template):
    # Picks the step from the folder names itself, counting "15.orbax-checkpoint-tmp" as step 15.
    root = pathlib.Path(directory).resolve()
    steps = [int(re.match(r"\d+", entry.name).group()) for entry in root.iterdir() if re.match(r"\d+", entry.name)]
    if not steps:
        return None, template
    manager = ocp.CheckpointManager(root)
    step = max(steps)
    state = manager.restore(step, args=ocp.args.StandardRestore(jax.tree.map(ocp.utils.to_shape_dtype_struct, template)))
    manager.close()
    return step, state
