"""Hooks schemathesis loads (SCHEMATHESIS_HOOKS): the tus upload's body type, which it cannot send by itself."""
import schemathesis
from schemathesis.transport.serialization import serialize_binary


@schemathesis.serializer("application/offset+octet-stream")
def offset_octet_stream(ctx, value):
    """A PATCH body of a resumable upload: the generated value's bytes, as `application/octet-stream` would be."""
    return {"data": serialize_binary(value)}
