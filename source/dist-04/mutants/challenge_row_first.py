# replaces: challenge-solution
# fails: challenge-test
@partial(jax.jit, static_argnames="mesh")
def tp_mlp(params, x, mesh):
    """relu(x @ w1 + b1) @ w2 + b2: batch split over mesh axis 0, hidden units over mesh axis 1 (shard_map + psum)."""
    # Row first: w1 split by ROWS (input features, x split the same way), the pre-activations summed
    # with psum, w2 kept whole. Right numbers where d divides, but the hidden activations travel
    # and w2 is stored on every device; it needs d to divide by the model axis.
    batch_axis, model_axis = mesh.axis_names
    specs = {"w1": P(model_axis, None), "b1": P(), "w2": P(), "b2": P()}
    x_spec = P(batch_axis, model_axis)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in specs.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        pre = jax.lax.psum(x @ p["w1"], model_axis)
        return jax.nn.relu(pre + p["b1"]) @ p["w2"] + p["b2"]

    return jax.shard_map(local, mesh=mesh, in_specs=(specs, x_spec), out_specs=P(batch_axis, None))(params, x)
