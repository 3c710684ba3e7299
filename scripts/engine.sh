#!/usr/bin/env bash
# Make the Pulumi engine (CLI) available for this repo and print its bin directory on stdout.
#
#   bash scripts/engine.sh            -> prints e.g. /root/.cache/pulumi-privnet/engine/v3.259.0/bin
#
# Progress goes to stderr; stdout carries exactly one line, the bin directory, so callers can do
#   ENGINE_BIN="$(bash scripts/engine.sh)"
#
# The bin directory holds:
#   pulumi                          the CLI/engine, built from the Go module proxy (tools/pulumi-cli)
#   pulumi-language-nodejs          sh wrapper: Node 24 running engine/language-host.js (our language host)
#   pulumi-resource-pulumi-nodejs   copy of @pulumi/pulumi's dynamic-provider plugin script
#   pulumi-language-yaml            the YAML language host, built from the Go module proxy (YAML programs)
#   pulumi-language-java            the Java language host, put there by scripts/language-java.sh (npm run setup
#                                   does, where a JDK and Maven are installed)
#
# Resolution order for the `pulumi` binary (version = node_modules/@pulumi/pulumi's version, which must equal
# the version pinned in tools/pulumi-cli/go.mod):
#   1. the cache: ${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}/v<version>/bin/pulumi
#   2. a `pulumi` on PATH reporting exactly v<version>: hard-linked (or copied) into the cache bin dir, so that
#      the language host and plugins sit next to it (the CLI looks for bundled plugins next to its executable
#      and warns when the ones found on PATH live elsewhere)
#   3. otherwise: build it from tools/pulumi-cli (needs Go; ~7 min with a warm module cache on 2 cores,
#      longer when modules must be downloaded). The build goes to a temp dir and is moved into place, so an
#      interrupted build never leaves a half-written binary.
# Concurrent runs are serialised with flock when available.
set -euo pipefail

log() { printf 'engine: %s\n' "$*" >&2; }
die() {
  printf 'engine: error: %s\n' "$*" >&2
  exit 1
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL_DIR="$ROOT/tools/pulumi-cli"
SDK_PKG="$ROOT/node_modules/@pulumi/pulumi/package.json"
NODE_BIN="$ROOT/node_modules/.bin/node"
HOST_JS="$ROOT/engine/language-host.js"

[ -f "$SDK_PKG" ] || die "$SDK_PKG not found: run 'npm ci' first"
[ -x "$NODE_BIN" ] || die "$NODE_BIN not found: the repo's devDependency 'node' (Node 24) must be installed (npm ci)"
[ -f "$TOOL_DIR/go.mod" ] || die "$TOOL_DIR/go.mod not found"
[ -f "$HOST_JS" ] || die "$HOST_JS not found"

# --- versions ------------------------------------------------------------------------------------------------
SDK_VERSION="$("$NODE_BIN" -e 'process.stdout.write(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version)' "$SDK_PKG")"
GO_VERSION="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2; exit }' "$TOOL_DIR/go.mod")"
[ -n "$SDK_VERSION" ] || die "could not read the version of @pulumi/pulumi from $SDK_PKG"
[ -n "$GO_VERSION" ] || die "could not find github.com/pulumi/pulumi/pkg/v3 in $TOOL_DIR/go.mod"
if [ "v$SDK_VERSION" != "$GO_VERSION" ]; then
  die "version mismatch: node_modules/@pulumi/pulumi is $SDK_VERSION but tools/pulumi-cli/go.mod pins pkg/v3 $GO_VERSION.
  Keep them equal: cd tools/pulumi-cli && go get -tool github.com/pulumi/pulumi/pkg/v3/cmd/pulumi@v$SDK_VERSION && go mod tidy
  (and pin @pulumi/pulumi to exactly ${GO_VERSION#v} in package.json, or the other way round)."
fi
VERSION="v$SDK_VERSION"

CACHE="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}"
VER_DIR="$CACHE/$VERSION"
BIN="$VER_DIR/bin"

# Prints the version a pulumi binary reports, or nothing.
pulumi_version_of() {
  PULUMI_SKIP_UPDATE_CHECK=true PULUMI_HOME="${PULUMI_HOME:-$CACHE/pulumi-home}" "$1" version 2>/dev/null | tr -d '\r' | head -n 1 || true
}

# Writes $2 (content) to file $1 atomically, only when it differs; mode 0755.
install_text() {
  local dest="$1" content="$2" tmp
  if [ -f "$dest" ] && [ -x "$dest" ] && [ "$(cat "$dest")" = "$content" ]; then
    return 0
  fi
  tmp="$(mktemp "$dest.tmp.XXXXXX")"
  printf '%s\n' "$content" >"$tmp"
  chmod 0755 "$tmp"
  mv -f "$tmp" "$dest"
  log "installed $dest"
}

mkdir -p "$BIN"

# Serialise concurrent runs (parallel test workers, two terminals).
if command -v flock >/dev/null 2>&1; then
  exec 9>"$VER_DIR/.lock"
  if ! flock -n 9; then
    log "waiting for another engine.sh run to finish (lock $VER_DIR/.lock)..."
    flock 9
  fi
fi

# Leftovers of builds that were killed (we hold the lock, so nobody else is building).
if command -v flock >/dev/null 2>&1; then
  rm -rf "$VER_DIR"/.build.* "$BIN"/.pulumi.tmp.* 2>/dev/null || true
fi

# --- 1. cached binary ----------------------------------------------------------------------------------------
have_binary=false
if [ -x "$BIN/pulumi" ]; then
  got="$(pulumi_version_of "$BIN/pulumi")"
  if [ "$got" = "$VERSION" ]; then
    have_binary=true
  else
    log "cached $BIN/pulumi reports '${got:-nothing}', expected $VERSION: replacing it"
    rm -f "$BIN/pulumi"
  fi
fi

# --- 2. a matching pulumi on PATH ----------------------------------------------------------------------------
if ! $have_binary; then
  path_pulumi="$(command -v pulumi 2>/dev/null || true)"
  if [ -n "$path_pulumi" ] && [ "$(pulumi_version_of "$path_pulumi")" = "$VERSION" ]; then
    real="$(readlink -f "$path_pulumi")"
    log "using $VERSION from PATH ($real)"
    tmp="$(mktemp "$BIN/.pulumi.tmp.XXXXXX")"
    rm -f "$tmp"
    ln "$real" "$tmp" 2>/dev/null || cp -p "$real" "$tmp"
    mv -f "$tmp" "$BIN/pulumi"
    have_binary=true
  fi
fi

# --- 3. build from the Go module proxy -----------------------------------------------------------------------
if ! $have_binary; then
  command -v go >/dev/null 2>&1 || die "no pulumi $VERSION found and Go is not installed: cannot build the engine"
  start=$SECONDS
  build_dir="$(mktemp -d "$VER_DIR/.build.XXXXXX")"
  trap 'rm -rf "$build_dir"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  log "building pulumi $VERSION into $BIN (Go: $(go env GOVERSION), module cache: $(go env GOMODCACHE))"
  log "downloading Go modules..."
  # Only the modules the build needs: `go mod download` (no args) would fetch every module in the graph,
  # and some pseudo-versions there are not served by the proxy (only their go.mod is).
  (cd "$TOOL_DIR" && go list -mod=readonly -deps github.com/pulumi/pulumi/pkg/v3/cmd/pulumi >/dev/null) ||
    die "downloading Go modules failed (is the Go module proxy reachable?)"
  log "modules ready after $((SECONDS - start))s"
  log "compiling pulumi $VERSION (about 6-8 min cold on 2 cores)..."
  (
    cd "$TOOL_DIR"
    CGO_ENABLED=0 go build -mod=readonly -trimpath -tags osusergo,grpcnotrace \
      -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$VERSION" \
      -o "$build_dir/pulumi" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi
  ) || die "go build failed"
  got="$(pulumi_version_of "$build_dir/pulumi")"
  [ "$got" = "$VERSION" ] || die "the freshly built binary reports '${got:-nothing}', expected $VERSION"
  mv -f "$build_dir/pulumi" "$BIN/pulumi"
  rm -rf "$build_dir"
  trap - EXIT INT TERM
  log "built pulumi $VERSION in $((SECONDS - start))s"
fi

# --- the YAML language host ---------------------------------------------------------------------------------
# YAML programs (the resource plugin's tests and examples) need pulumi-language-yaml. The module proxy serves it
# (unlike the Node, Python and Go hosts): built once, about 1 min on 2 cores, cached next to the CLI.
YAML_VERSION="v1.25.0"
if [ ! -x "$BIN/pulumi-language-yaml" ] || [ "$(cat "$VER_DIR/.yaml-version" 2>/dev/null)" != "$YAML_VERSION" ]; then
  command -v go >/dev/null 2>&1 || die "Go is not installed: cannot build pulumi-language-yaml"
  start=$SECONDS
  log "building pulumi-language-yaml $YAML_VERSION (about 1 min)..."
  yaml_dir="$(mktemp -d "$VER_DIR/.build.XXXXXX")"
  (
    cd "$yaml_dir"
    CGO_ENABLED=0 GOFLAGS=-mod=mod GOBIN="$yaml_dir/bin" \
      go install -trimpath "github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@$YAML_VERSION"
  ) || die "building pulumi-language-yaml failed (is the Go module proxy reachable?)"
  mv -f "$yaml_dir/bin/pulumi-language-yaml" "$BIN/pulumi-language-yaml"
  printf '%s\n' "$YAML_VERSION" >"$VER_DIR/.yaml-version"
  rm -rf "$yaml_dir"
  log "built pulumi-language-yaml in $((SECONDS - start))s"
fi

# --- plugins next to the binary ------------------------------------------------------------------------------
# Our language host. PRIVNET_ROOT / PRIVNET_NODE override the checkout / Node binary baked in here (the cache
# can be shared by several checkouts; the last engine.sh run decides the default).
install_text "$BIN/pulumi-language-nodejs" "#!/bin/sh
# Generated by $ROOT/scripts/engine.sh: the pulumi-privnet Node language host (engine/language-host.js).
root=\"\${PRIVNET_ROOT:-$ROOT}\"
exec \"\${PRIVNET_NODE:-\$root/node_modules/.bin/node}\" \"\$root/engine/language-host.js\" \"\$@\""

# The dynamic-provider plugin, verbatim from the SDK (it runs `node` from PATH: put Node 24 first, see
# scripts/pulumi-env.sh).
install_text "$BIN/pulumi-resource-pulumi-nodejs" "$(cat "$ROOT/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs")"

printf '%s\n' "$BIN"
