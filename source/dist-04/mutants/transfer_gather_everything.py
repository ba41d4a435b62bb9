# replaces: transfer-solution
# fails: transfer-test
@partial(jax.jit, static_argnames="mesh")
def fsdp_tp_mlp(params, x, mesh):
    """As tp_mlp, with w1 and w2 stored split over both mesh axes and all-gathered over the batch axis."""
    # Pure FSDP inside: gathers the WHOLE weights (over both axes) and b1, then computes the full MLP
    # on every device. Right numbers, but no tensor parallelism: every device does all the work.
    batch_axis, model_axis = mesh.axis_names
    stored = {"w1": P(None, (model_axis, batch_axis)), "b1": P(model_axis),
              "w2": P((model_axis, batch_axis), None), "b2": P()}
    x_spec = P(batch_axis, None)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in stored.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        w1 = jax.lax.all_gather(p["w1"], (model_axis, batch_axis), axis=1, tiled=True)
        b1 = jax.lax.all_gather(p["b1"], model_axis, axis=0, tiled=True)
        w2 = jax.lax.all_gather(p["w2"], (model_axis, batch_axis), axis=0, tiled=True)
        return jax.nn.relu(x @ w1 + b1) @ w2 + p["b2"]

    return jax.shard_map(local, mesh=mesh, in_specs=(stored, x_spec), out_specs=x_spec, check_vma=False)(params, x)
