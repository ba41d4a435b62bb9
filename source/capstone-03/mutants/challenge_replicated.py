# replaces: challenge-solution
# fails: challenge-test
# On the right devices, but every array whole on each of them: right by value, four times the memory.
def restore_model(run_dir, mesh):
    """The model of the newest complete checkpoint that save_state wrote in run_dir, on `mesh` (any mesh with the
    axes ("data", "model")) laid out by param_spec, read without the optimizer's state. Returns (step, model)."""
    graphdef, abstract = nnx.split(nnx.eval_shape(lambda: Transformer(config, rngs=nnx.Rngs(0))))
    target = nnx.from_flat_state([
        (path, var.replace(jax.ShapeDtypeStruct(var.get_value().shape, var.get_value().dtype,
                                                sharding=NamedSharding(mesh, P()))))
        for path, var in nnx.to_flat_state(abstract)])
    manager = ocp.CheckpointManager(pathlib.Path(run_dir).resolve())
    step = manager.latest_step()
    restored = manager.restore(step, args=ocp.args.PyTreeRestore(
        item={"model": target}, restore_args=ocp.checkpoint_utils.construct_restore_args({"model": target}),
        partial_restore=True))
    manager.close()
    return step, nnx.merge(graphdef, restored["model"])
