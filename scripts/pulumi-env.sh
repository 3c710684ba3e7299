# shellcheck shell=bash
# Source me (bash):  . scripts/pulumi-env.sh
#
# Sets up the environment for running this repo's Pulumi engine offline:
#   PATH                 engine bin dir (see scripts/engine.sh) and <repo>/node_modules/.bin (Node 24) first
#   PULUMI_SKIP_UPDATE_CHECK=true, PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true,
#   PULUMI_NODEJS_TRANSPILE_ONLY=true
#   PULUMI_HOME          default: <engine cache>/pulumi-home
#   PULUMI_CONFIG_PASSPHRASE=""  only when neither it nor PULUMI_CONFIG_PASSPHRASE_FILE is set
#   PRIVNET_ROOT, PRIVNET_ENGINE_BIN
#   PULUMI_BACKEND_URL is NOT set: use the helper below (or set it yourself).
# Values the caller already set are kept (PATH is only prepended to, once).
# It does not build the engine: run `bash scripts/engine.sh` (or `npm run engine`) once first.
#
# Helper:
#   privnet_file_backend [DIR]   creates DIR (default: a new temp dir) and exports PULUMI_BACKEND_URL=file://DIR
#                                and PRIVNET_BACKEND_DIR=DIR. Call it directly, not in $(...) (a subshell would
#                                lose the exports).
#
# Safe under `set -euo pipefail` in the caller; defines only the variables above and the helper function.

PRIVNET_ROOT="${PRIVNET_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)}"
export PRIVNET_ROOT

if [ -z "${PRIVNET_ENGINE_BIN:-}" ]; then
  # Same layout as scripts/engine.sh: <cache>/v<version of node_modules/@pulumi/pulumi>/bin
  _privnet_version="$(sed -n 's/^[[:space:]]*"version":[[:space:]]*"\([^"]*\)".*/\1/p' \
    "$PRIVNET_ROOT/node_modules/@pulumi/pulumi/package.json" 2>/dev/null | head -n 1)"
  PRIVNET_ENGINE_BIN="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}/v${_privnet_version:-unknown}/bin"
  unset _privnet_version
fi
export PRIVNET_ENGINE_BIN

case ":${PATH:-}:" in
  *":$PRIVNET_ENGINE_BIN:$PRIVNET_ROOT/node_modules/.bin:"*) ;;
  *) PATH="$PRIVNET_ENGINE_BIN:$PRIVNET_ROOT/node_modules/.bin${PATH:+:$PATH}" ;;
esac
export PATH

export PULUMI_SKIP_UPDATE_CHECK="${PULUMI_SKIP_UPDATE_CHECK:-true}"
export PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION="${PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION:-true}"
export PULUMI_NODEJS_TRANSPILE_ONLY="${PULUMI_NODEJS_TRANSPILE_ONLY:-true}"
export PULUMI_HOME="${PULUMI_HOME:-${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}/pulumi-home}"
if [ -z "${PULUMI_CONFIG_PASSPHRASE+set}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE+set}" ]; then
  export PULUMI_CONFIG_PASSPHRASE=""
fi

# privnet_file_backend [DIR]: create a file (DIY) state backend directory and point PULUMI_BACKEND_URL at it.
privnet_file_backend() {
  local dir="${1:-}"
  if [ -z "$dir" ]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/pulumi-state.XXXXXX")" || return 1
  fi
  mkdir -p "$dir" || return 1
  dir="$(cd "$dir" && pwd)" || return 1
  export PRIVNET_BACKEND_DIR="$dir"
  export PULUMI_BACKEND_URL="file://$dir"
}
