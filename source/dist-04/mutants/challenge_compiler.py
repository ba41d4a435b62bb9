# replaces: challenge-solution
# fails: challenge-test
@partial(jax.jit, static_argnames="mesh")
def tp_mlp(params, x, mesh):
    """relu(x @ w1 + b1) @ w2 + b2: batch split over mesh axis 0, hidden units over mesh axis 1 (shard_map + psum)."""
    # No shard_map: the TP layout and the plain MLP, with out_sharding on the second product. The
    # compiler adds the all-reduce, but there is no psum of yours in the program.
    batch_axis, model_axis = mesh.axis_names
    specs = {"w1": P(None, model_axis), "b1": P(model_axis), "w2": P(model_axis, None), "b2": P()}
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in specs.items()}
    x = jax.device_put(x, NamedSharding(mesh, P(batch_axis, None)))
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    y = jnp.matmul(h, params["w2"], out_sharding=NamedSharding(mesh, P(batch_axis, None)))
    return y + params["b2"]
