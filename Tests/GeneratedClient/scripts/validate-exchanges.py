"""Validates recorded HTTP exchanges against an OpenAPI document, strictly.

Usage: validate-exchanges.py DOCUMENT EXCHANGES.jsonl

Each line of EXCHANGES is one request and its answer (method, path, headers, body, status,
responseHeaders, responseBody), as the generated-client walk and CoordinatorTesting's LiveServer
record them. Every request and every response is validated with openapi-core against DOCUMENT,
made strict first: an object schema that names its properties and says nothing of others gets
`additionalProperties: false`, so a member the document does not declare fails. A schema made of
parts (`allOf` of objects: a screen's `ScreenBase` and its content, `EventAnswer`'s `State` and
extras) is merged into one object first, so each part's strictness does not refuse its siblings'
members; what the merge changes in meaning is nothing (the same members, each with all its parts'
constraints).
"""
import json
import sys

import yaml
from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse


def merged(schemas):
    """Each component schema that is an `allOf` of objects, as one object with all their members."""
    def resolve(node):
        return schemas[node["$ref"].split("/")[-1]] if "$ref" in node else node
    def merge(name, schema):
        parts = [resolve(part) for part in schema["allOf"]]
        parts = [merge(None, part) if "allOf" in part else part for part in parts]
        if not all(part.get("type") == "object" for part in parts):
            sys.exit(f"{name}: an allOf of other than objects; teach this script to merge it")
        properties, required = {}, []
        for part in parts:
            for member, member_schema in part.get("properties", {}).items():
                # A member in two parts keeps both constraints (`name`: a string, and this screen's).
                properties[member] = {"allOf": [properties[member], member_schema]} if member in properties else member_schema
            required += [member for member in part.get("required", []) if member not in required]
        kept = {key: value for key, value in schema.items() if key != "allOf"}
        return dict(kept, type="object", required=required, properties=properties)
    return {name: merge(name, schema) if "allOf" in schema else schema for name, schema in schemas.items()}


def strict(node):
    """Forbids undeclared members in every object schema that lists its properties."""
    if isinstance(node, dict):
        if "properties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for value in node.values():
            strict(value)
    elif isinstance(node, list):
        for value in node:
            strict(value)
    return node


def main():
    document, exchanges = sys.argv[1], sys.argv[2]
    spec = yaml.safe_load(open(document))
    spec["components"]["schemas"] = merged(spec["components"]["schemas"])
    spec = strict(spec)
    # Problems are JSON too (RFC 9457); a live stream's body is text (its frames are the
    # document's `StreamFrame`s, which the walks decode with the generated types).
    config = Config(extra_media_type_deserializers={
        "application/problem+json": json.loads, "text/event-stream": lambda body: body.decode()})
    openapi = OpenAPI.from_dict(spec, config=config)
    lines = [json.loads(line) for line in open(exchanges) if line.strip()]
    if not lines:
        sys.exit(f"{exchanges}: no exchanges recorded")
    failures = []
    for number, exchange in enumerate(lines, 1):
        headers = {name.lower(): value for name, value in exchange["headers"].items()}
        path, _, query = exchange["path"].partition("?")
        body = exchange["body"].encode() or None
        request = MockRequest(
            "http://127.0.0.1", exchange["method"].lower(), path, args=None, headers=headers, data=body,
            content_type=headers.get("content-type", "application/json"))
        response_headers = {name.lower(): value for name, value in exchange["responseHeaders"].items()}
        response = MockResponse(
            exchange["responseBody"].encode(), status_code=exchange["status"], headers=response_headers,
            content_type=response_headers.get("content-type", "application/json").split(";")[0])
        where = f"{number}: {exchange['method']} {exchange['path']} -> {exchange['status']}"
        # A request the server refused as malformed (400) or unprocessable (422) may be invalid on
        # purpose (a journey tries a wrong payload); its answer is still validated.
        if exchange["status"] not in (400, 422):
            try:
                openapi.validate_request(request)
            except Exception as error:  # each failure is reported, not only the first
                failures.append(f"{where}: request: {error!r} {getattr(error, '__cause__', '')!r}")
        try:
            openapi.validate_response(request, response)
        except Exception as error:
            failures.append(f"{where}: response: {error!r} {getattr(error, '__cause__', '')!r}")
    # The validator itself: an undeclared member in an answer must fail, or "valid" means nothing.
    probe = next(e for e in lines if e["responseBody"].startswith("{") and 200 <= e["status"] < 300)
    tampered = dict(json.loads(probe["responseBody"]), undeclared=True)
    try:
        openapi.validate_response(
            MockRequest("http://127.0.0.1", probe["method"].lower(), probe["path"].partition("?")[0],
                        headers={k.lower(): v for k, v in probe["headers"].items()}, data=probe["body"].encode() or None,
                        content_type="application/json"),
            MockResponse(json.dumps(tampered).encode(), status_code=probe["status"],
                         headers={k.lower(): v for k, v in probe["responseHeaders"].items()}, content_type="application/json"))
        failures.append("the validator accepted an undeclared member: it is not strict")
    except Exception:
        pass
    for failure in failures:
        print(failure)
    print(f"{len(lines) - len({f.split(':')[0] for f in failures})} of {len(lines)} exchanges valid against {document}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
