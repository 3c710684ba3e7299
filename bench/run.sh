#!/usr/bin/env bash
# `npm run bench`: builds what the benchmarks need, then runs them (bench/main.ts; arguments are passed on).
#   1. npm run build (dist/: the server, and the package the Pulumi programs install as a copy)
#   2. the Pulumi engine (scripts/engine.sh: cached after the first build)
#   3. node (the repo's Node 24) with bench/register.js, which runs the TypeScript from the source tree
# Prerequisite: `npm run setup` (node_modules). Exit code: bench/main.ts's (non-zero only for a broken run).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export PATH="$ROOT/node_modules/.bin:$PATH"
[ -x node_modules/.bin/node ] || { echo "bench: node_modules missing: run 'npm run setup' first" >&2; exit 1; }
echo "bench: $(node --version) at $(command -v node)"
# --render only re-renders the report from bench/results/latest.json: nothing to build.
case " $* " in *" --render "*) exec node -r ./bench/register.js bench/main.ts "$@" ;; esac
echo "bench: npm run build"
npm run --silent build
echo "bench: Pulumi engine (scripts/engine.sh)"
ENGINE_BIN="$(bash scripts/engine.sh | tail -n 1)"
[ -x "$ENGINE_BIN/pulumi" ] || { echo "bench: scripts/engine.sh printed no usable bin dir" >&2; exit 1; }
export PRIVNET_ENGINE_BIN="$ENGINE_BIN"
exec node -r ./bench/register.js bench/main.ts "$@"
