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
# Hard links (the node package links its binary) become symbolic links: the engine's unpacker takes files,
# directories and symbolic links only, and copies would double the tarball.
"$NODE" -e '
  const fs = require("fs");
  const path = require("path");
  const first = new Map();
  (function walk(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      if (!e.isFile()) continue;
      const st = fs.statSync(p);
      if (st.nlink < 2) continue;
      const key = `${st.dev}:${st.ino}`;
      const target = first.get(key);
      if (!target) {
        first.set(key, p);
        continue;
      }
      fs.unlinkSync(p);
      fs.symlinkSync(path.relative(path.dirname(p), target), p);
    }
  })(process.argv[1]);
' "$work/plugin"
tar -czf "$out.tmp" -C "$work/plugin" .
mv -f "$out.tmp" "$out"
log "wrote $out ($(du -h "$out" | cut -f1))"
printf '%s\n' "$out"
