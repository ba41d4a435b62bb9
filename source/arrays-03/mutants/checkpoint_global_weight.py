# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # a global weight is exactly the hidden input the lesson removes
