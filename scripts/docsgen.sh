#!/usr/bin/env bash
# Runs Pulumi's docs generator (tools/docsgen: github.com/pulumi/pulumi/pkg/v3/codegen/docs at v3.143.0, the
# last version of pulumi/pulumi that has it) on a package schema:
#
#   bash scripts/docsgen.sh SCHEMA.json OUT_DIR
#
# It writes the generator's own pages (Hugo-flavoured markdown) into OUT_DIR; scripts/apidocs.ts turns them into
# docs/api/. The tool is built once per version of its sources into the engine cache, beside the SDK generator
# (about 2.5 minutes on 2 cores with a cold module cache; modules from the Go module proxy). Go is needed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL_DIR="$ROOT/tools/docsgen"
CACHE="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}"

die() {
  printf 'docsgen: error: %s\n' "$*" >&2
  exit 1
}

[ "$#" -eq 2 ] || die "usage: bash scripts/docsgen.sh SCHEMA.json OUT_DIR"
command -v go >/dev/null 2>&1 || die "Go is not installed: it builds the docs generator"

key="$(cat "$TOOL_DIR/go.mod" "$TOOL_DIR/go.sum" "$TOOL_DIR/main.go" | sha256sum | cut -c1-16)"
GEN="$CACHE/docsgen/$key/docsgen"
if [ ! -x "$GEN" ]; then
  printf 'docsgen: building the docs generator (tools/docsgen) into %s\n' "$GEN" >&2
  mkdir -p "$(dirname "$GEN")"
  (cd "$TOOL_DIR" && CGO_ENABLED=0 go build -mod=readonly -trimpath -o "$GEN.tmp.$$" .) ||
    die "go build of tools/docsgen failed"
  mv "$GEN.tmp.$$" "$GEN"
fi
exec "$GEN" "$1" "$2"
