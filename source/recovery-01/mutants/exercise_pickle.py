# replaces: exercise-solution
# fails: exercise-test
import pickle


def save_and_restore(state, directory):
    # Pickles the whole state instead: the NamedTuple comes back, but orbax cannot read the folder.
    path = pathlib.Path(directory).resolve() / "state"
    path.mkdir()
    with open(path / "state.pkl", "wb") as file:
        pickle.dump(jax.device_get(state), file)
    with open(path / "state.pkl", "rb") as file:
        return jax.tree.map(jnp.asarray, pickle.load(file))
