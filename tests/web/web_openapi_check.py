"""Check API answers against ``web/openapi.json`` — the subset of JSON Schema the
document uses (type, nullable, required, properties, items, enum, bounds, pattern,
oneOf, $ref), so the document cannot drift from what the server sends."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

SPEC: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "web" / "openapi.json").read_text()
)
TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
}


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        node: Any = SPEC
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def errors(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    schema = resolve(schema)
    if value is None:
        return [] if schema.get("nullable") or not schema else [f"{where}: null"]
    if "oneOf" in schema:
        fits = [s for s in schema["oneOf"] if not errors(value, s, where)]
        return [] if len(fits) == 1 else [f"{where}: fits {len(fits)} of oneOf"]
    kind = schema.get("type")
    if kind:
        if isinstance(value, bool) and kind in ("integer", "number"):
            return [f"{where}: bool is not {kind}"]
        if not isinstance(value, TYPES[kind]):
            return [f"{where}: {type(value).__name__} is not {kind}"]
    found: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not in {schema['enum']}")
    if "minimum" in schema and value < schema["minimum"]:
        found.append(f"{where}: {value} < {schema['minimum']}")
    if "maximum" in schema and value > schema["maximum"]:
        found.append(f"{where}: {value} > {schema['maximum']}")
    if "pattern" in schema and not re.search(schema["pattern"], value):
        found.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                found.append(f"{where}: missing {key}")
        for key, sub in schema.get("properties", {}).items():
            if key in value:
                found += errors(value[key], sub, f"{where}.{key}")
    if isinstance(value, list):
        if "minItems" in schema and len(value) < schema["minItems"]:
            found.append(f"{where}: fewer than {schema['minItems']} items")
        for i, item in enumerate(value):
            found += errors(item, schema.get("items", {}), f"{where}[{i}]")
    return found


def response_schema(path: str, method: str, status: int) -> dict[str, Any] | None:
    """The documented JSON schema of an answer, None when it is not JSON."""
    answers = SPEC["paths"][path][method]["responses"]
    answer = resolve(answers[str(status)]) if str(status) in answers else None
    assert answer is not None, f"{method.upper()} {path} does not document status {status}"
    content = answer.get("content", {}).get("application/json")
    return None if content is None else content["schema"]  # type: ignore[no-any-return]


def check(path: str, method: str, status: int, body: Any) -> None:
    """Assert ``body`` is what the document promises for this answer."""
    schema = response_schema(path, method, status)
    if schema is not None:
        problems = errors(body, schema)
        assert not problems, f"{method.upper()} {path} {status}: " + "; ".join(problems[:5])
