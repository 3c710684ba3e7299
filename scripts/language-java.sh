#!/usr/bin/env bash
# Make Pulumi's Java language host (pulumi-language-java) available beside the engine and print that bin directory
# on stdout (the engine's, see scripts/engine.sh), so Java programs (`runtime: java`) run under the same CLI:
#
#   bash scripts/language-java.sh              -> prints e.g. /root/.cache/pulumi-privnet/engine/v3.259.0/bin
#   bash scripts/language-java.sh --optional   -> the same where a JDK and Maven are installed; elsewhere it says
#                                                 what is missing on stderr, prints nothing and exits 0 (npm run
#                                                 setup uses this: a machine without Java still sets up)
#
# Progress goes to stderr; stdout carries exactly one line, the bin directory.
#
# The host is built from the Go module proxy (tool module tools/language-java, which pins
# github.com/pulumi/pulumi-java/pkg; about 1 minute on 2 cores). The proxy refuses that module's version list, so
# `go install ...@version` fails; it serves the exact version a go.mod names, so a tool module builds it. The
# binary goes next to the engine's `pulumi` (the CLI takes the language hosts beside its executable without the
# "using ... from $PATH" warning), rebuilt only when the tool module's go.mod/go.sum change (stamp
# <engine cache>/v<version>/.java-host). Concurrent runs are serialised with flock when available; the build goes
# to a temp dir and is moved into place, so an interrupted build never leaves a half-written binary.
#
# At run time the host needs a JDK (11 or later: `java`, and `javac` for Maven to compile the program) and a
# build tool on PATH: Maven (`mvn`, or the project's ./mvnw) for the Maven projects this repository documents.
set -euo pipefail

log() { printf 'language-java: %s\n' "$*" >&2; }
die() {
  printf 'language-java: error: %s\n' "$*" >&2
  exit 1
}

optional=false
case "${1:-}" in
  --optional) optional=true ;;
  "") ;;
  *) die "usage: bash scripts/language-java.sh [--optional]" ;;
esac

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOL_DIR="$ROOT/tools/language-java"
PKG="github.com/pulumi/pulumi-java/pkg"
[ -f "$TOOL_DIR/go.mod" ] || die "$TOOL_DIR/go.mod not found"

# --- what Java programs need --------------------------------------------------------------------------------
missing=()
if command -v javac >/dev/null 2>&1; then
  jdk_major="$(javac -version 2>&1 | sed -n 's/^javac \([0-9][0-9]*\).*/\1/p' | head -n 1)"
  if [ -z "$jdk_major" ] || [ "$jdk_major" -lt 11 ]; then
    missing+=("a JDK 11 or later (javac reports '$(javac -version 2>&1 | head -n 1)')")
  fi
else
  missing+=("a JDK 11 or later (no javac)")
fi
command -v java >/dev/null 2>&1 || missing+=("the JDK's launcher (no java)")
command -v mvn >/dev/null 2>&1 || missing+=("Maven (no mvn)")
command -v go >/dev/null 2>&1 || missing+=("Go 1.24 or later, which builds the host (no go)")
if [ "${#missing[@]}" -gt 0 ]; then
  what="$(printf '%s; ' "${missing[@]}")"
  msg="Java programs cannot run here, missing: ${what%; }. On Debian: apt-get install openjdk-17-jdk-headless maven."
  if $optional; then
    log "skipped. $msg"
    exit 0
  fi
  die "$msg"
fi

# --- the engine's bin dir -----------------------------------------------------------------------------------
BIN="$(bash "$ROOT/scripts/engine.sh")" || die "scripts/engine.sh failed"
VER_DIR="$(dirname "$BIN")"

VERSION="$(awk -v p="$PKG" '$1 == p { print $2; exit } $1 == "require" && $2 == p { print $3; exit }' "$TOOL_DIR/go.mod")"
[ -n "$VERSION" ] || die "could not find $PKG in $TOOL_DIR/go.mod"
KEY="$VERSION $(cat "$TOOL_DIR/go.mod" "$TOOL_DIR/go.sum" | sha256sum | cut -c1-16)"
STAMP="$VER_DIR/.java-host"

if command -v flock >/dev/null 2>&1; then
  exec 8>"$VER_DIR/.java-host.lock"
  if ! flock -n 8; then
    log "waiting for another language-java.sh run to finish (lock $VER_DIR/.java-host.lock)..."
    flock 8
  fi
  rm -rf "$VER_DIR"/.java-build.* 2>/dev/null || true
fi

if [ ! -x "$BIN/pulumi-language-java" ] || [ "$(cat "$STAMP" 2>/dev/null)" != "$KEY" ]; then
  start=$SECONDS
  build_dir="$(mktemp -d "$VER_DIR/.java-build.XXXXXX")"
  trap 'rm -rf "$build_dir"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  log "building pulumi-language-java $VERSION into $BIN (about 1 min on 2 cores; modules from the Go module proxy)..."
  (
    cd "$TOOL_DIR"
    CGO_ENABLED=0 go build -mod=readonly -trimpath \
      -ldflags "-X $PKG/version.Version=$VERSION" \
      -o "$build_dir/pulumi-language-java" "$PKG/cmd/pulumi-language-java"
  ) || die "go build of pulumi-language-java failed (is the Go module proxy reachable?)"
  mv -f "$build_dir/pulumi-language-java" "$BIN/pulumi-language-java"
  printf '%s\n' "$KEY" >"$STAMP"
  rm -rf "$build_dir"
  trap - EXIT INT TERM
  log "built pulumi-language-java $VERSION in $((SECONDS - start))s"
fi

printf '%s\n' "$BIN"
