# replaces: challenge-solution
# fails: challenge-test
def train_with_resume(step_fn, state, num_steps, save_every, crash_at, directory):
    # Checkpoints "the model": parameters, step and key, but not the optimizer state, which restarts fresh.
    directory = pathlib.Path(directory).resolve()
    options = ocp.CheckpointManagerOptions(save_interval_steps=save_every)
    manager = ocp.CheckpointManager(directory, options=options)
    current = state
    while int(current.step) < crash_at:
        current, _ = step_fn(current)
        model = {"params": current.params, "step": current.step, "key_data": current.key_data}
        manager.save(int(current.step), args=ocp.args.StandardSave(model))
    manager.wait_until_finished()
    manager.close()

    manager = ocp.CheckpointManager(directory, options=options)
    template = {"params": state.params, "step": state.step, "key_data": state.key_data}
    model = manager.restore(manager.latest_step(),
                            args=ocp.args.StandardRestore(jax.tree.map(ocp.utils.to_shape_dtype_struct, template)))
    manager.close()
    resumed = state._replace(params=model["params"], step=model["step"], key_data=model["key_data"])
    final, _ = run_until(step_fn, resumed, num_steps)
    return final
