"""Checks responses of the running server against the committed OpenAPI document."""
import json
import os
import re
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

DOCUMENT_PATH = Path(__file__).resolve().parent.parent / "Sources" / "WebApp" / "Resources" / "openapi.json"
DOCUMENT = json.loads(DOCUMENT_PATH.read_text())
BASE = "urn:saessak:openapi"
REGISTRY = Registry().with_resource(BASE, Resource(contents=DOCUMENT, specification=DRAFT202012))
PREFIX = "/api/v1"

# (method, path template, status) seen by the tests, to prove every documented success was exercised. With pytest-xdist
# each worker has its own set, so every new one is also written to a file of the run's folder (SEEN_FOLDER, made by
# conftest in the controlling process), which the controller reads when the workers are done.
SEEN = set()
SEEN_FOLDER = "SAESSAK_CONTRACT_SEEN"


def _seen(triple):
    if triple in SEEN:
        return
    SEEN.add(triple)
    folder = os.environ.get(SEEN_FOLDER)
    if folder:
        with open(Path(folder) / f"seen-{os.getpid()}", "a", encoding="utf-8") as file:
            file.write("\t".join(triple) + "\n")


def seen_in_folder(folder):
    """Every (method, template, status) the processes of a run wrote to `folder`."""
    return {tuple(line.split("\t")) for path in Path(folder).glob("seen-*") for line in path.read_text().splitlines()}


def _template(path):
    """The documented path a request path matches; literal segments win over parameters, as in the router."""
    matches = []
    for template in DOCUMENT["paths"]:
        pattern = "^" + re.sub(r"\\\{[^/]+?\\\}", "[^/]+", re.escape(template)) + "$"
        if re.match(pattern, path):
            matches.append(template)
    return min(matches, key=lambda t: t.count("{"), default=None)


def _pointer(*parts):
    return "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def check(method, path, response):
    """Fails unless the response's status, content type and body are what the document says."""
    route = path.split("?")[0]
    assert route.startswith(PREFIX), route
    template = _template(route[len(PREFIX):])
    assert template, f"{route} is not in the OpenAPI document"
    operation = DOCUMENT["paths"][template].get(method.lower())
    assert operation, f"{method} {template} is not in the OpenAPI document"
    status = str(response.status)
    assert status in operation["responses"], f"{method} {template} answered {status}, which the document does not list"
    _seen((method.upper(), template, status))
    content = operation["responses"][status].get("content")
    if not content:
        assert not response.body, f"{method} {template} {status} should have no body"
        return
    assert response.content_type in content, f"{method} {template} {status}: content type {response.content_type}"
    schema = content[response.content_type].get("schema")
    if schema is None:
        return
    reference = {"$ref": f"{BASE}#/" + _pointer("paths", template, method.lower(), "responses", status, "content", response.content_type, "schema")}
    validator = Draft202012Validator(reference, registry=REGISTRY, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(response.json()), key=lambda e: list(e.path))
    assert not errors, f"{method} {template} {status}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors)


def call(server, method, path, body=None, token=None, **kw):
    """`server`'s answer to `method` on /api/v1 + `path`, checked against the document first."""
    response = server.request(method, PREFIX + path, body, token, **kw)
    check(method, PREFIX + path, response)
    return response


def documented_successes():
    for template, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for status in operation["responses"]:
                if status.startswith("2"):
                    yield (method.upper(), template, status)


def missing_successes(seen):
    """The documented successes that no test saw (the document itself is served by a route of its own)."""
    return set(documented_successes()) - set(seen) - {("GET", "/openapi.json", "200")}
