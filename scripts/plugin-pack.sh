#!/usr/bin/env bash
# Builds the resource plugin as a tarball that `pulumi plugin install` takes, for machines without a registry:
#
#   npm run plugin:pack      -> prints the tarball's path: build/pulumi-resource-privnet-v<version>-<os>-<arch>.tar.gz
#   pulumi plugin install resource privnet <version> --file build/pulumi-resource-privnet-v<version>-....tar.gz
#
# The tarball holds what the plugin runs on, so it needs nothing installed beside it:
#   pulumi-resource-privnet           the launcher the engine starts
#   node_modules/pulumi-privnet/      the package as `npm pack` makes it (compiled JavaScript, the schema)
#   node_modules/<dependencies>       its production dependencies
#   node_modules/.bin/node            Node (the `node` package at the version this repo uses)
# Packages come from npm's cache where `npm ci` put them (--prefer-offline); run `npm run build` first.
set -euo pipefail

log() { printf 'plugin-pack: %s\n' "$*" >&2; }
die() {
  printf 'plugin-pack: error: %s\n' "$*" >&2
  exit 1
}

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE="$ROOT/node_modules/.bin/node"
[ -x "$NODE" ] || die "$NODE not found: run 'npm ci' first"
[ -f "$ROOT/dist/plugin/main.js" ] || die "$ROOT/dist/plugin/main.js not found: run 'npm run build' first"
[ -f "$ROOT/plugin/schema.json" ] || die "$ROOT/plugin/schema.json not found: run 'npm run gen' first"

version="$("$NODE" -p 'require(process.argv[1]).version' "$ROOT/package.json")"
node_version="$("$NODE" -p 'require(process.argv[1]).version' "$ROOT/node_modules/node/package.json")"
os="$("$NODE" -p 'process.platform')"
arch="$("$NODE" -p '({ x64: "amd64", arm64: "arm64" })[process.arch] || process.arch')"

work="$(mktemp -d "${TMPDIR:-/tmp}/privnet-plugin-pack.XXXXXX")"
trap 'rm -rf "$work"' EXIT

log "packing pulumi-privnet $version"
(cd "$ROOT" && npm pack --silent --pack-destination "$work" >/dev/null)
tgz="$work/pulumi-privnet-$version.tgz"
[ -f "$tgz" ] || die "npm pack made no $tgz"

mkdir "$work/plugin"
cat >"$work/plugin/package.json" <<JSON
{ "private": true, "allowScripts": { "node": true, "protobufjs": true } }
JSON
log "installing it with its production dependencies and Node $node_version"
(cd "$work/plugin" && npm install --omit=dev --no-audit --no-fund --prefer-offline --no-package-lock \
  --loglevel=error "$tgz" "node@$node_version" >&2) || die "npm install failed"
[ -x "$work/plugin/node_modules/.bin/node" ] || die "the node package installed no binary"

cat >"$work/plugin/pulumi-resource-privnet" <<'SH'
#!/bin/sh
# pulumi-privnet's resource plugin, as `pulumi plugin install` unpacked it: the package's launcher, which runs it on
# the Node installed beside it (node_modules/.bin/node).
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/node_modules/pulumi-privnet/bin/pulumi-resource-privnet" "$@"
SH
chmod 0755 "$work/plugin/pulumi-resource-privnet"
rm -f "$work/plugin/package.json"

mkdir -p "$ROOT/build"
out="$ROOT/build/pulumi-resource-privnet-v$version-$os-$arch.tar.gz"
tar -czf "$out.tmp" -C "$work/plugin" .
mv -f "$out.tmp" "$out"
log "wrote $out ($(du -h "$out" | cut -f1))"
printf '%s\n' "$out"
