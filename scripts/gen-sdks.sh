#!/usr/bin/env bash
# Generates the SDKs of the other Pulumi languages from the package schema plugin/schema.json (npm run gen writes
# the schema):
#   sdk/python   pip-installable from that directory (`pip install ./sdk/python`), package `pulumi_privnet`
#   sdk/go       Go module github.com/pulumi-privnet/pulumi-privnet/sdk/go, package .../sdk/go/privnet
#   sdk/java     Java package io.github.pulumiprivnet.privnet, its sources (docs/languages.md)
#   sdk/dotnet   .NET package PulumiPrivnet.Privnet, with its project file (docs/languages.md)
#
#   bash scripts/gen-sdks.sh           writes them
#   bash scripts/gen-sdks.sh --check   writes nothing; exits 1 when they differ from what the schema gives
#
# The code generators are Pulumi's own. Python's and Go's are in github.com/pulumi/pulumi/pkg/v3 at the version
# the engine is built from (tools/pulumi-cli/go.mod), run by tools/pulumi-cli/sdkgen. `pulumi package gen-sdk`
# would call the same generators through each language's plugin, which the Go module proxy does not serve. The
# .NET generator left pkg/v3 later and the Java generator lives in github.com/pulumi/pulumi-java/pkg: both are
# run at the versions tools/codegen pins (pkg/v3 v3.143.0, pulumi-java/pkg v0.19.0), by scripts/codegen.sh. The
# generator binaries are built once per version of their sources into the engine cache (about 1 and 2.5 minutes
# on 2 cores with the modules cached). Go is needed; `go mod tidy` writes sdk/go/go.sum (modules from the Go
# module proxy).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCHEMA="$ROOT/plugin/schema.json"
TOOL_DIR="$ROOT/tools/pulumi-cli"
CACHE="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}"

log() { printf 'gen-sdks: %s\n' "$*" >&2; }
die() {
  printf 'gen-sdks: error: %s\n' "$*" >&2
  exit 1
}

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) die "usage: bash scripts/gen-sdks.sh [--check]" ;;
esac

[ -f "$SCHEMA" ] || die "$SCHEMA not found: run npm run gen first"
command -v go >/dev/null 2>&1 || die "Go is not installed: it builds the SDK generator"

# The generator, built once per version of its sources.
key="$(cat "$TOOL_DIR/go.mod" "$TOOL_DIR/go.sum" "$TOOL_DIR/sdkgen/main.go" | sha256sum | cut -c1-16)"
GEN="$CACHE/sdkgen/$key/sdkgen"
if [ ! -x "$GEN" ]; then
  log "building the SDK generator (tools/pulumi-cli/sdkgen) into $GEN"
  mkdir -p "$(dirname "$GEN")"
  (cd "$TOOL_DIR" && CGO_ENABLED=0 go build -mod=readonly -trimpath -o "$GEN.tmp" ./sdkgen) ||
    die "go build of tools/pulumi-cli/sdkgen failed"
  mv "$GEN.tmp" "$GEN"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/privnet-sdks.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Python: the pyproject names README.md beside it (the language plugin puts the package's README there).
"$GEN" "$SCHEMA" python "$work/python"
cp "$work/python/pulumi_privnet/README.md" "$work/python/README.md"

# Go: go.sum, so that `go build ./...` works in sdk/go as checked out.
"$GEN" "$SCHEMA" go "$work/go"
(cd "$work/go" && GOFLAGS=-mod=mod go mod tidy) || die "go mod tidy in the generated Go SDK failed"

# Java and .NET: the generators of tools/codegen.
bash "$ROOT/scripts/codegen.sh" java "$SCHEMA" "$work/java"
bash "$ROOT/scripts/codegen.sh" dotnet "$SCHEMA" "$work/dotnet"

status=0
for lang in python go java dotnet; do
  if $check; then
    # What building or installing leaves in the directory is not generated (the generated .gitignore lists it).
    if ! diff -r -q -x build -x dist -x '*.egg-info' -x __pycache__ -x '*.pyc' -x .mypy_cache -x target -x bin -x obj \
      "$work/$lang" "$ROOT/sdk/$lang" >"$work/$lang.diff" 2>&1; then
      log "sdk/$lang is stale (run npm run gen and commit):"
      head -n 20 "$work/$lang.diff" >&2
      status=1
    fi
  else
    rm -rf "$ROOT/sdk/$lang"
    cp -R "$work/$lang" "$ROOT/sdk/$lang"
    log "wrote sdk/$lang"
  fi
done
if $check && [ "$status" -eq 0 ]; then log "sdk/python, sdk/go, sdk/java and sdk/dotnet are up to date"; fi
exit "$status"
