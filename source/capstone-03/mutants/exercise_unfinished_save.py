# replaces: exercise-solution
# fails: exercise-test
# Takes every folder whose name starts with a step number, the unfinished "12.orbax-checkpoint-tmp" too.
def save_state(manager, step, model, optimizer, stream, key):
    """Offer the whole state of the run after `step` steps to manager.save(step, ...); return what it returns."""
    return manager.save(step, args=ocp.args.StandardSave({
        "model": nnx.state(model), "optimizer": nnx.state(optimizer),
        "position": stream.position, "key": jax.random.key_data(key)}))


def restore_latest(manager, model, optimizer, stream, key):
    """Restore the newest complete checkpoint of `manager` into model, optimizer and stream (in place, every
    array in the layout it has now) and return (step, key) with the restored key; with none, return (0, key)."""
    steps = [int(name.split(".")[0]) for name in os.listdir(manager.directory) if name.split(".")[0].isdigit()]
    if not steps:
        return 0, key
    step = max(steps)
    target = jax.tree.map(ocp.utils.to_shape_dtype_struct, {
        "model": nnx.state(model), "optimizer": nnx.state(optimizer),
        "position": stream.position, "key": jax.random.key_data(key)})
    restored = manager.restore(step, args=ocp.args.StandardRestore(target))
    nnx.update(model, restored["model"])
    nnx.update(optimizer, restored["optimizer"])
    stream.position = restored["position"]
    return step, jax.random.wrap_key_data(restored["key"])
