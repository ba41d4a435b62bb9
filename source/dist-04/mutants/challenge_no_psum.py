# replaces: challenge-solution
# fails: challenge-test
@partial(jax.jit, static_argnames="mesh")
def tp_mlp(params, x, mesh):
    """relu(x @ w1 + b1) @ w2 + b2: batch split over mesh axis 0, hidden units over mesh axis 1 (shard_map + psum)."""
    batch_axis, model_axis = mesh.axis_names
    specs = {"w1": P(None, model_axis), "b1": P(model_axis), "w2": P(model_axis, None), "b2": P()}
    x_spec = P(batch_axis, None)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in specs.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        return h @ p["w2"] + p["b2"]          # no psum: one device's partial sum

    # check_vma=False silences the error that the missing psum would raise; the output is then
    # one device's partial sum, taken as if it were the whole.
    return jax.shard_map(local, mesh=mesh, in_specs=(specs, x_spec), out_specs=x_spec, check_vma=False)(params, x)
