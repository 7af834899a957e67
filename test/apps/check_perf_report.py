#!/usr/bin/python3
"""Validates a JSON report against its schema: `ort perf --json` against
docs/perf_report.schema.json, `ort optimize --report` against docs/optimize_report.schema.json.

    check_perf_report.py SCHEMA REPORT [PATH=VALUE]...

PATH=VALUE additionally requires the value at a dotted key path (settings.opt_level) to equal
VALUE, read as JSON when it parses as JSON and as a string otherwise. Exit 0 when valid, 1 with
one line per problem otherwise.

No JSON Schema validator is packaged for the build machines, so this implements the subset the
schema uses: type, required, properties, additionalProperties, items, minimum, enum. Any other
validation keyword in the schema is an error, so the schema cannot silently rely on a rule that
is never checked.
"""
import json
import sys

ANNOTATIONS = {"$schema", "$id", "title", "description"}
KEYWORDS = {"type", "required", "properties", "additionalProperties", "items", "minimum", "enum"}


def type_matches(value, name):
    # bool is an int subclass in Python, but not a JSON number.
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    expected = {"object": dict, "array": list, "string": str, "boolean": bool,
                "null": type(None)}.get(name)
    if expected is None:
        raise ValueError(f"schema: unknown type '{name}'")
    return isinstance(value, expected)


def validate(value, schema, path, errors):
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise ValueError(f"schema at {path}: unsupported keywords {sorted(unknown)}")
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(type_matches(value, name) for name in names):
            errors.append(f"{path}: expected {'/'.join(names)}, got {json.dumps(value)[:60]}")
            return
    if "enum" in schema and value not in schema["enum"]:
        errors.append(f"{path}: {json.dumps(value)} is not one of {schema['enum']}")
    if "minimum" in schema and isinstance(value, (int, float)) and value < schema["minimum"]:
        errors.append(f"{path}: {value} is below the minimum {schema['minimum']}")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                errors.append(f"{path}: missing required key '{key}'")
        properties = schema.get("properties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in value.items():
            if key in properties:
                validate(item, properties[key], f"{path}.{key}", errors)
            elif extra is False:
                errors.append(f"{path}: unexpected key '{key}'")
            elif isinstance(extra, dict):
                validate(item, extra, f"{path}.{key}", errors)
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            validate(item, schema["items"], f"{path}[{index}]", errors)


def lookup(report, dotted):
    value = report
    for key in dotted.split("."):
        if not isinstance(value, dict) or key not in value:
            raise KeyError(dotted)
        value = value[key]
    return value


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    with open(argv[1]) as file:
        schema = json.load(file)
    try:
        with open(argv[2]) as file:
            report = json.load(file)
    except (OSError, ValueError) as error:
        print(f"{argv[2]}: {error}")
        return 1
    errors = []
    validate(report, schema, "$", errors)
    for expectation in argv[3:]:
        dotted, _, text = expectation.partition("=")
        try:
            wanted = json.loads(text)
        except ValueError:
            wanted = text
        try:
            actual = lookup(report, dotted)
        except KeyError:
            errors.append(f"{dotted}: missing (wanted {json.dumps(wanted)})")
            continue
        if actual != wanted:
            errors.append(f"{dotted}: {json.dumps(actual)} (wanted {json.dumps(wanted)})")
    for error in errors:
        print(f"{argv[2]}: {error}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
