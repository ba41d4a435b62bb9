"""Tooling for the JAX course: release lessons and grade submissions safely.

Importing the package does nothing else: the command-line entry points (cli, inprocess) drop
jsonschema's format checkers before nbformat loads, and the gradebook puts this environment's
tools on PATH when it is first reached (course.Course.db_url).
"""
