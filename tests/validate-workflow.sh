#!/bin/sh
# validate-workflow.sh WORKFLOW.yml...: check each GitHub Actions workflow file against
# SchemaStore's github-workflow schema (tests/schemas/github-workflow.json, JSON Schema
# draft 7, with Debian's python3-jsonschema; the YAML read by python3-yaml as GitHub
# reads it: `on` is a key, not a boolean, and a key given twice is an error), and that
# every job a job `needs` exists. Prints one line per file; exit 0 when every file is
# valid, 1 when one is not, 2 when the validator is missing.
here=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 - "$here/tests/schemas/github-workflow.json" "$@" <<'PY'
import json, re, sys
try:
    import jsonschema
    import yaml
except ImportError as e:
    print("validate-workflow: %s (python3-jsonschema and python3-yaml)" % e, file=sys.stderr)
    sys.exit(2)

class Loader(yaml.SafeLoader):
    """YAML 1.2's booleans (true, false), as GitHub reads a workflow; duplicate keys refused."""

Loader.yaml_implicit_resolvers = {
    k: [r for r in v if r[0] != "tag:yaml.org,2002:bool"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
Loader.add_implicit_resolver("tag:yaml.org,2002:bool",
                             re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))

def mapping(loader, node, deep=False):
    seen = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, "key %r given twice" % (key,), key_node.start_mark)
        seen.add(key)
    return yaml.SafeLoader.construct_mapping(loader, node, deep)

Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                       lambda loader, node: mapping(loader, node, True))

def needs_errors(doc):
    jobs = doc.get("jobs") if isinstance(doc, dict) else None
    if not isinstance(jobs, dict):
        return []
    out = []
    for name, job in jobs.items():
        needs = job.get("needs", []) if isinstance(job, dict) else []
        for n in [needs] if isinstance(needs, str) else needs:
            if n not in jobs:
                out.append("job %s needs %r, which is no job of this workflow" % (name, n))
    return out

def why(e):
    """An error's words; for a oneOf or anyOf, those of the branch that came nearest."""
    if not e.context:
        return e.message[:200]
    branches = {}
    for c in e.context:
        branches.setdefault(c.schema_path[0], []).append(c)
    near = min(branches.values(), key=len)
    return "; ".join(why(c) for c in near)

validator = jsonschema.Draft7Validator(json.load(open(sys.argv[1])))
bad = 0
for path in sys.argv[2:]:
    try:
        doc = yaml.load(open(path), Loader=Loader)
    except (OSError, yaml.YAMLError) as e:
        bad += 1
        print("%s: INVALID: %s" % (path, str(e).replace("\n", " ")))
        continue
    errors = list(validator.iter_errors(doc))
    more = needs_errors(doc)
    if errors:
        bad += 1
        e = min(errors, key=lambda e: list(map(str, e.absolute_path)))
        print("%s: INVALID at %s: %s (%d error(s))"
              % (path, "/".join(map(str, e.absolute_path)), why(e), len(errors)))
    elif more:
        bad += 1
        print("%s: INVALID: %s" % (path, more[0]))
    else:
        print("%s: valid" % path)
sys.exit(1 if bad else 0)
PY
