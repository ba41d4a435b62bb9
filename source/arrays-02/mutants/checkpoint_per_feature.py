# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 4  # (1, 3) broadcasts, but it adds one value per feature (column), not one per row
