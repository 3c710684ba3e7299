#!/usr/bin/env bash
# Installs pulumi-privnet into Pulumi projects (the examples) without the network:
#
#   bash scripts/install-example.sh examples/network [examples/core ...]
#
# For each project directory:
#   node_modules/pulumi-privnet   a COPY of the built package: exactly the files `npm pack` puts in the tarball
#                                 (dist/, bin/, package.json, ...). Run `npm run build` first.
#   node_modules/@pulumi/pulumi   real files (hard links to the repo's copy), as npm installs it (see below).
#   node_modules/<dep>            a symlink to <repo>/node_modules/<dep>, for every other package the repo has
#                                 installed (the project's dependencies, pulumi-privnet's and @pulumi/pulumi's);
#                                 the script checks that every dependency pulumi-privnet and the project name is
#                                 there.
#
# Why a copy: a dynamic resource stores its provider in state as serialized code. A provider loaded from a
# package under node_modules serializes as one line, require("pulumi-privnet/provider") (the public entry);
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
  # @pulumi/pulumi as real files (hard links into the repo's copy: no space, no download), as npm installs it. Its
  # closure serializer names modules by their real path and reads the package.json "exports" of the package a
  # module belongs to, resolving that package from its own location: from a symlink into the repo it could not
  # see pulumi-privnet, and a resource's provider would be named by its file, not its public entry.
  rm -rf "$nm/@pulumi/pulumi"
  mkdir -p "$nm/@pulumi"
  cp -al "$ROOT/node_modules/@pulumi/pulumi" "$nm/@pulumi/pulumi" 2>/dev/null ||
    cp -a "$ROOT/node_modules/@pulumi/pulumi" "$nm/@pulumi/pulumi"
  linked=0
  while IFS= read -r dep; do
    [ -n "$dep" ] || continue
    src="$ROOT/node_modules/$dep"
    [ -e "$src" ] || die "$dep (needed by $project) is not installed in $ROOT/node_modules: run 'npm ci'"
  done < <(deps_of "$dest/package.json" "$project/package.json")
  # Every other package of the repo's node_modules as a link (the dependencies of @pulumi/pulumi resolve from the
  # project now), unless the project has it installed by other means.
  for src in "$ROOT"/node_modules/* "$ROOT"/node_modules/@*/*; do
    dep="${src#"$ROOT"/node_modules/}"
    case "$dep" in
    .bin | pulumi-privnet | @pulumi/pulumi) continue ;;
    @*/*) ;;         # a scoped package
    @*) continue ;;  # a scope directory (its packages come from the second pattern)
    esac
    if [ -d "$nm/$dep" ] && [ ! -L "$nm/$dep" ]; then
      continue # installed in the project by other means (npm install): keep it
    fi
    mkdir -p "$(dirname "$nm/$dep")"
    ln -sfn "$src" "$nm/$dep.tmp-link"
    mv -Tf "$nm/$dep.tmp-link" "$nm/$dep"
    linked=$((linked + 1))
  done
  log "$project: pulumi-privnet copied ($(du -sh "$dest" | cut -f1)), $linked dependencies linked"
done
