# replaces: challenge-solution
# fails: challenge-test
@partial(jax.jit, static_argnames="mesh")
def tp_mlp(params, x, mesh):
    """relu(x @ w1 + b1) @ w2 + b2: batch split over mesh axis 0, hidden units over mesh axis 1 (shard_map + psum)."""
    # Typed in from the lesson: the axis names "data" and "model", whatever this mesh calls its axes.
    specs = {"w1": P(None, "model"), "b1": P("model"), "w2": P("model", None), "b2": P()}
    x_spec = P("data", None)
    params = {name: jax.device_put(params[name], NamedSharding(mesh, spec)) for name, spec in specs.items()}
    x = jax.device_put(x, NamedSharding(mesh, x_spec))

    def local(p, x):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        return jax.lax.psum(h @ p["w2"], "model") + p["b2"]

    return jax.shard_map(local, mesh=mesh, in_specs=(specs, x_spec), out_specs=x_spec)(params, x)
