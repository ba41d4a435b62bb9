# replaces: transfer-solution
# fails: transfer-test
@partial(jax.jit, static_argnames="mesh")
def fsdp_tp_mlp(params, x, mesh):
    """As tp_mlp, with w1 and w2 stored split over both mesh axes and all-gathered over the batch axis."""
    # Plain TP storage: each device keeps its whole TP blocks, so nothing is gathered and nothing
    # is saved: the weights are stored twice as large as asked.
    batch_axis, model_axis = mesh.axis_names
    stored = {"w1": P(None, model_axis), "b1": P(model_axis), "w2": P(model_axis, None), "b2": P()}
    x_spec = P(batch_axis, None)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in stored.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        return jax.lax.psum(h @ p["w2"], model_axis) + p["b2"]

    return jax.shard_map(local, mesh=mesh, in_specs=(stored, x_spec), out_specs=x_spec)(params, x)
