#!/usr/bin/env bash
# Runs the code generators that left pulumi/pulumi after v3.143.0, at that version (tools/codegen), on a package
# schema:
#
#   bash scripts/codegen.sh docs   SCHEMA.json OUT_DIR   the API docs (scripts/apidocs.ts makes docs/api/ of them)
#   bash scripts/codegen.sh dotnet SCHEMA.json OUT_DIR   the .NET SDK
#   bash scripts/codegen.sh java   SCHEMA.json OUT_DIR   the Java SDK
#
# The tool is built once per version of its sources into the engine cache, beside the SDK generator (about 2.5
# minutes on 2 cores with a cold module cache; modules from the Go module proxy). Go is needed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL_DIR="$ROOT/tools/codegen"
CACHE="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}"

die() {
  printf 'codegen: error: %s\n' "$*" >&2
  exit 1
}

[ "$#" -eq 3 ] || die "usage: bash scripts/codegen.sh docs|dotnet|java SCHEMA.json OUT_DIR"
command -v go >/dev/null 2>&1 || die "Go is not installed: it builds the generators"

key="$(cat "$TOOL_DIR/go.mod" "$TOOL_DIR/go.sum" "$TOOL_DIR/main.go" "$TOOL_DIR/logo.png" | sha256sum | cut -c1-16)"
GEN="$CACHE/codegen/$key/codegen"
if [ ! -x "$GEN" ]; then
  printf 'codegen: building the generators (tools/codegen) into %s\n' "$GEN" >&2
  mkdir -p "$(dirname "$GEN")"
  (cd "$TOOL_DIR" && CGO_ENABLED=0 go build -mod=readonly -trimpath -o "$GEN.tmp.$$" .) ||
    die "go build of tools/codegen failed"
  mv "$GEN.tmp.$$" "$GEN"
fi
exec "$GEN" "$1" "$2" "$3"
