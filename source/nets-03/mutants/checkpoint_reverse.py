# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # reversing the axes gives WHIO: kernel height and width swapped
