# replaces: challenge-solution
# fails: challenge-test
# The target built from a model placed on the lesson's 2 x 4 mesh, not on the mesh it was given.
def restore_model(run_dir, mesh):
    """The model of the newest complete checkpoint that save_state wrote in run_dir, on `mesh` (any mesh with the
    axes ("data", "model")) laid out by param_spec, read without the optimizer's state. Returns (step, model)."""
    model = place(Transformer(config, rngs=nnx.Rngs(0)), globals()["mesh"], param_spec)
    graphdef, state = nnx.split(model)
    target = jax.tree.map(ocp.utils.to_shape_dtype_struct, state)
    manager = ocp.CheckpointManager(pathlib.Path(run_dir).resolve())
    step = manager.latest_step()
    restored = manager.restore(step, args=ocp.args.PyTreeRestore(
        item={"model": target}, restore_args=ocp.checkpoint_utils.construct_restore_args({"model": target}),
        partial_restore=True))
    manager.close()
    return step, nnx.merge(graphdef, restored["model"])
