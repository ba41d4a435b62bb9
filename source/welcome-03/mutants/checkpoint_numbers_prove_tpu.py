# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # treats agreement with NumPy as proof of TPU execution
