# replaces: practice-solution
# fails: practice-test
def environment_record():
    # Types in the values the first cell printed instead of reading them when called: right on
    # the machine it was typed on, wrong on any other Python, JAX, NumPy, backend or device count.
    return {
        "python": "3.11.7",
        "jax": "0.9.2",
        "numpy": "2.4.4",
        "backend": "cpu",
        "device_count": 1,
    }
