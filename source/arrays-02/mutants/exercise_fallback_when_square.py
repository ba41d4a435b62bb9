# replaces: exercise-solution
# fails: exercise-test
def add_row_offsets(batch, offsets):
    # Tries the bare vector first and reshapes only when JAX complains. On a square batch
    # nothing complains, so the offsets land on the features instead of the rows.
    try:
        return batch + offsets
    except (ValueError, TypeError):
        return batch + offsets[:, None]
