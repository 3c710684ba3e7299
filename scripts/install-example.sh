#!/usr/bin/env bash
# Installs pulumi-privnet into Pulumi projects (the examples) without the network:
#
#   bash scripts/install-example.sh examples/network [examples/core ...]
#
# For each project directory:
#   node_modules/pulumi-privnet   a COPY of the built package: exactly the files `npm pack` puts in the tarball
#                                 (dist/, bin/, package.json, ...). Run `npm run build` first.
#   node_modules/<dep>            a symlink to <repo>/node_modules/<dep>, for every dependency of pulumi-privnet
#                                 and every (dev)dependency the project's package.json names (@pulumi/pulumi,
#                                 typescript, ...); their own dependencies resolve from the repo's node_modules
#                                 (Node follows the symlink to the real path).
#
# Why a copy: a dynamic resource stores its provider in state as serialized code. A provider loaded from a
# package under node_modules serializes as one line, require("pulumi-privnet/dist/provider/resources/<kind>");
# loaded through a symlink (npm link, `file:` installs, workspaces) its real path is outside node_modules and
# the serializer copies the whole provider (client, zod schemas, ...) into state by value, which breaks.
# Why symlinks for the rest: nothing of theirs is serialized, and they make the install need no registry.
#
# The script is idempotent and replaces an earlier install. Nothing is downloaded.
set -euo pipefail

log() { printf 'install-example: %s\n' "$*" >&2; }
die() {
  printf 'install-example: error: %s\n' "$*" >&2
  exit 1
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE="$ROOT/node_modules/.bin/node"
[ "$#" -ge 1 ] || die "usage: bash scripts/install-example.sh PROJECT_DIR..."
[ -x "$NODE" ] || die "$NODE not found: run 'npm ci' first"
[ -f "$ROOT/dist/sdk/index.js" ] || die "$ROOT/dist/sdk/index.js not found: run 'npm run build' first"

work="$(mktemp -d "${TMPDIR:-/tmp}/privnet-install.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# One tarball for all projects: what `npm install pulumi-privnet` would unpack from the registry. npm pack runs no
# lifecycle script here (the package has no prepare/prepack), so it only reads the files.
(cd "$ROOT" && PATH="$ROOT/node_modules/.bin:$PATH" npm pack --silent --pack-destination "$work" >"$work/pack.out" 2>"$work/pack.err") ||
  die "npm pack failed: $(cat "$work/pack.err")"
tarball="$work/$(tail -n 1 "$work/pack.out")"
[ -f "$tarball" ] || die "npm pack wrote no tarball ($(cat "$work/pack.out"))"

# The dependency names to link: pulumi-privnet's dependencies (as npm would install them: not its
# devDependencies) plus the project's dependencies and devDependencies, except pulumi-privnet itself.
deps_of() {
  "$NODE" -e '
    const fs = require("fs");
    const read = (file) => JSON.parse(fs.readFileSync(file, "utf8"));
    const [pkg, project] = process.argv.slice(1).map(read);
    const names = new Set([
      ...Object.keys(pkg.dependencies || {}),
      ...Object.keys(project.dependencies || {}),
      ...Object.keys(project.devDependencies || {}),
    ]);
    names.delete("pulumi-privnet");
    for (const n of [...names].sort()) process.stdout.write(n + "\n");
  ' "$1" "$2"
}

for project in "$@"; do
  [ -f "$project/package.json" ] || die "$project/package.json not found"
  project="$(cd "$project" && pwd)"
  nm="$project/node_modules"
  dest="$nm/pulumi-privnet"
  mkdir -p "$nm"
  rm -rf "$dest" "$nm/.pulumi-privnet.tmp"
  mkdir -p "$nm/.pulumi-privnet.tmp"
  tar -xzf "$tarball" -C "$nm/.pulumi-privnet.tmp" --strip-components=1
  mv "$nm/.pulumi-privnet.tmp" "$dest"
  linked=0
  while IFS= read -r dep; do
    [ -n "$dep" ] || continue
    src="$ROOT/node_modules/$dep"
    [ -e "$src" ] || die "$dep (needed by $project) is not installed in $ROOT/node_modules: run 'npm ci'"
    if [ -d "$nm/$dep" ] && [ ! -L "$nm/$dep" ]; then
      continue # installed in the project by other means (npm install): keep it
    fi
    mkdir -p "$(dirname "$nm/$dep")"
    ln -sfn "$src" "$nm/$dep.tmp-link"
    mv -Tf "$nm/$dep.tmp-link" "$nm/$dep"
    linked=$((linked + 1))
  done < <(deps_of "$dest/package.json" "$project/package.json")
  log "$project: pulumi-privnet copied ($(du -sh "$dest" | cut -f1)), $linked dependencies linked"
done
