#!/usr/bin/env bash
# Builds Pulumi's Python language host (pulumi-language-python, and its exec shim) at the engine's version, so that
# an ordinary Python project (Pulumi.yaml `runtime: python`, a `__main__.py`) runs under the real CLI here, and
# prints the directory to put on PATH. Nothing in CI uses it: the Go module proxy refuses this module, so its
# source comes from a checkout (or git directory) of pulumi/pulumi that has the engine's tag:
#
#   bash scripts/language-python.sh /path/to/pulumi-git-dir     -> prints e.g. ~/.cache/pulumi-privnet/language-python/v3.259.0/bin
#
# The module's own `replace` of pkg/v3 and sdk/v3 by the checkout's folders is dropped: both come from the Go
# module proxy at the engine's version, like tools/pulumi-cli. About 1 minute on 2 cores with the engine's modules
# cached. See docs/languages.md, "Python under the real language host".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
die() {
  printf 'language-python: error: %s\n' "$*" >&2
  exit 1
}
[ "$#" -eq 1 ] || die "usage: bash scripts/language-python.sh PULUMI_GIT_DIR"
SRC="$1"
VERSION="$(awk '$1 == "github.com/pulumi/pulumi/pkg/v3" { print $2; exit }' "$ROOT/tools/pulumi-cli/go.mod")"
[ -n "$VERSION" ] || die "no pkg/v3 version in tools/pulumi-cli/go.mod"
git -C "$SRC" rev-parse --verify --quiet "$VERSION^{commit}" >/dev/null || die "$SRC has no tag $VERSION"

OUT="$HOME/.cache/pulumi-privnet/language-python/$VERSION"
if [ ! -x "$OUT/bin/pulumi-language-python" ] || [ ! -x "$OUT/bin/pulumi-language-python-exec" ]; then
  rm -rf "$OUT/src"
  mkdir -p "$OUT/src" "$OUT/bin"
  git -C "$SRC" archive "$VERSION" sdk/python/cmd/pulumi-language-python | tar -x -C "$OUT/src"
  git -C "$SRC" show "$VERSION:sdk/python/cmd/pulumi-language-python-exec" >"$OUT/bin/pulumi-language-python-exec"
  chmod +x "$OUT/bin/pulumi-language-python-exec"
  mod="$OUT/src/sdk/python/cmd/pulumi-language-python"
  (
    cd "$mod"
    sed -i '/github.com\/pulumi\/pulumi\/pkg\/v3 => /d; /github.com\/pulumi\/pulumi\/sdk\/v3 => /d' go.mod
    go mod edit -require="github.com/pulumi/pulumi/pkg/v3@$VERSION" -require="github.com/pulumi/pulumi/sdk/v3@$VERSION"
    GOFLAGS=-mod=mod go mod tidy >&2
    CGO_ENABLED=0 go build -mod=mod -trimpath \
      -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$VERSION" \
      -o "$OUT/bin/pulumi-language-python.tmp" .
  ) || die "building pulumi-language-python failed"
  mv "$OUT/bin/pulumi-language-python.tmp" "$OUT/bin/pulumi-language-python"
fi
printf '%s\n' "$OUT/bin"
