# replaces: challenge-solution
# fails: challenge-test
@partial(jax.jit, static_argnames="mesh")
def tp_mlp(params, x, mesh):
    """relu(x @ w1 + b1) @ w2 + b2: batch split over mesh axis 0, hidden units over mesh axis 1 (shard_map + psum)."""
    # Data parallel, not tensor parallel: the weights replicated on every device, each device
    # computing the whole MLP for its rows. Right numbers and placement, no weight is split.
    batch_axis, model_axis = mesh.axis_names
    specs = {name: P() for name in ("w1", "b1", "w2", "b2")}
    x_spec = P(batch_axis, None)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in specs.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        return jax.nn.relu(x @ p["w1"] + p["b1"]) @ p["w2"] + p["b2"]

    return jax.shard_map(local, mesh=mesh, in_specs=(specs, x_spec), out_specs=x_spec)(params, x)
