# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 3  # orbax restores whatever was saved; it cannot know which fields the run needed
