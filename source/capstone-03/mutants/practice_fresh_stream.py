# replaces: practice-solution
# fails: practice-test
# Restores the step, then builds the stream again: the restarted run reads the text from its first batch.
def train(run_dir, num_steps, every, mesh=mesh, seed=0):
    """Train the run start_run(mesh, seed) until step num_steps, resuming from the newest complete checkpoint in
    run_dir and saving the state after every `every`-th step there. Returns (model, optimizer, losses), losses
    being {step: loss as a float} for the steps this call ran."""
    options = ocp.CheckpointManagerOptions(save_interval_steps=every)
    manager = ocp.CheckpointManager(pathlib.Path(run_dir).resolve(), options=options)
    try:
        model, optimizer, stream, key = start_run(mesh, seed)
        step, key = restore_latest(manager, model, optimizer, stream, key)
        stream = TextStream(train_data, BATCH, config.context, mesh)
        losses = {}
        while step < num_steps:
            inputs, targets = stream.next_batch()
            loss, key = step_fn(model, optimizer, inputs, targets, key)
            losses[step] = float(loss)
            step += 1
            save_state(manager, step, model, optimizer, stream, key)
        manager.wait_until_finished()
    finally:
        manager.close()
    return model, optimizer, losses
