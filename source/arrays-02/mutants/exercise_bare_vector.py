# replaces: exercise-solution
# fails: exercise-test
def add_row_offsets(batch, offsets):
    # Leaves offsets as (n,): broadcasting lines it up with the feature axis, not the rows.
    return batch + offsets
