#!/bin/sh
# validate-run-json.sh RUN.JSON...: check each file against docs/run.schema.json (JSON
# Schema 2020-12, with Debian's python3-jsonschema). Prints one line per file; exit 0
# when every file is valid, 1 when one is not, 2 when the validator is missing.
here=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 - "$here/docs/run.schema.json" "$@" <<'PY'
import json, sys
try:
    import jsonschema
except ImportError:
    print("validate-run-json: python3-jsonschema is not installed", file=sys.stderr)
    sys.exit(2)
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    errors = sorted(validator.iter_errors(json.load(open(path))), key=lambda e: list(e.path))
    if errors:
        bad += 1
        e = errors[0]
        print("%s: INVALID at %s: %s (%d error(s))" % (path, "/".join(map(str, e.path)), e.message, len(errors)))
    else:
        print("%s: valid" % path)
sys.exit(1 if bad else 0)
PY
