# replaces: checkpoint-solution
# fails: checkpoint-test
checkpoint_answer = 1  # the guard keeps a diverged state finite, but every batch fails on it: the run never recovers
