# replaces: transfer-solution
# fails: transfer-test
@partial(jax.jit, static_argnames="mesh")
def fsdp_tp_mlp(params, x, mesh):
    """As tp_mlp, with w1 and w2 stored split over both mesh axes and all-gathered over the batch axis."""
    # (batch_axis, model_axis): the batch axis is now the major one, so a gather over it collects
    # hidden units that are not neighbours. w1 and w2 still agree with each other, but not with b1,
    # which is split in contiguous groups: right only when b1 is constant, as in the lesson.
    batch_axis, model_axis = mesh.axis_names
    stored = {"w1": P(None, (batch_axis, model_axis)), "b1": P(model_axis),
              "w2": P((batch_axis, model_axis), None), "b2": P()}
    x_spec = P(batch_axis, None)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in stored.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        w1 = jax.lax.all_gather(p["w1"], batch_axis, axis=1, tiled=True)
        w2 = jax.lax.all_gather(p["w2"], batch_axis, axis=0, tiled=True)
        h = jax.nn.relu(x @ w1 + p["b1"])
        return jax.lax.psum(h @ w2, model_axis) + p["b2"]

    return jax.shard_map(local, mesh=mesh, in_specs=(stored, x_spec), out_specs=x_spec)(params, x)
