# replaces: practice-solution
# fails: practice-test
def place_rows(batch, mesh):
    # Lets JAX's private jax._src.sharding.IndivisibleError escape: same name, different class.
    sharding = NamedSharding(mesh, P("data", None))
    sharding.shard_shape(batch.shape)  # raises JAX's own IndivisibleError for an uneven batch
    return jax.device_put(batch, sharding)
