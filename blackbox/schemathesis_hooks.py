"""Hooks schemathesis loads (SCHEMATHESIS_HOOKS): the tus upload's body type, which it cannot send by itself, and one
lock around `ast.parse` for CPython 3.11's AST recursion counter, which threads share."""
import ast
import threading

import schemathesis
from schemathesis.transport.serialization import serialize_binary

# CPython before 3.13 keeps the AST constructor's recursion depth in interpreter-wide state (python/cpython#106905):
# two workers building a tree at once — Hypothesis parses a lambda's source to name each `.filter` — can end one of
# them with "SystemError: AST constructor recursion depth mismatch", which schemathesis reports as a runtime error of
# its own, not a finding about the server. One parse at a time keeps the counter whole.
_parse = ast.parse
_parsing = threading.Lock()


def _parse_one_at_a_time(*arguments, **options):
    with _parsing:
        return _parse(*arguments, **options)


ast.parse = _parse_one_at_a_time


@schemathesis.serializer("application/offset+octet-stream")
def offset_octet_stream(ctx, value):
    """A PATCH body of a resumable upload: the generated value's bytes, as `application/octet-stream` would be."""
    return {"data": serialize_binary(value)}
