"""Import before nbformat: jsonschema goes without its string-format checkers.

jsonschema imports a checker for every format it knows, and one of them, rfc3987_syntax, builds
an IRI grammar with lark on import: 1.3 CPU-seconds in every process that reads a notebook.
Notebook schemas use no `format`, so nothing is lost: a checker that cannot be imported is
simply not registered. Shared by the grader's process and the runner in each sandbox.
"""
import sys

for _checker in ("rfc3987_syntax", "rfc3986_validator", "rfc3339_validator", "isoduration", "uri_template",
                 "webcolors", "fqdn"):
    sys.modules.setdefault(_checker, None)
