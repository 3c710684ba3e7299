#!/usr/bin/env bash
# The main job (`npm run main`): from a fresh clone, deploy the root Pulumi program (Pulumi.yaml ->
# examples/network/) to a throw-away local privnet-server and show what was created.
#
#   1. npm ci (when node_modules is missing or older than package-lock.json), npm run build
#   2. the Pulumi engine (scripts/engine.sh: built once from the Go module proxy, ~7-20 min cold; < 1 s after)
#   3. privnet-server on a free port: temp database, --simulate, owner token in a 0600 file (never printed)
#   4. a setup key created through the API; the simulated agent enrolls peers gw-1, gw-2, laptop-1..3
#   5. a file state backend and a passphrase-encrypted stack (temp dirs); privnet:apiUrl and the secret
#      privnet:token in stack config; pulumi-privnet installed into examples/network as a copy
#   6. pulumi preview, then pulumi up
#   7. the stack outputs (secrets masked) and the objects on the server, read back through the API
# The server is stopped and the temp dirs removed on exit, whatever happens. Exits non-zero on any failure.
#
# `--yaml` (`npm run example:yaml`) deploys examples/network-yaml instead: the same network as a Pulumi YAML
# program, through the resource plugin (bin/pulumi-resource-privnet on PATH); nothing to install into it.
#
# Environment: PRIVNET_MAIN_KEEP=1 keeps the temp dir (state, database, logs) and prints its path.
#              PRIVNET_MAIN_SKIP_BUILD=1 skips npm run build (the e2e test runs the job after `npm test` built).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
YAML=false
case "${1:-}" in
  "") ;;
  --yaml) YAML=true ;;
  *)
    echo "usage: bash scripts/main-job.sh [--yaml]" >&2
    exit 2
    ;;
esac
# Where Pulumi.yaml is: the root program (TypeScript, main: examples/network/) or the YAML example.
PROJECT_DIR="$ROOT"
$YAML && PROJECT_DIR="$ROOT/examples/network-yaml"
# One stack per run (the pid keeps two runs from sharing the stack's config file next to Pulumi.yaml).
STACK="main-job-$$"
START=$SECONDS
STEP_START=$SECONDS
STEP_NAME=""

# Progress: `step NAME` closes the previous step (with its duration) and opens the next; `step` alone closes.
step() {
  [ -n "$STEP_NAME" ] && printf 'main: --- %s: %ss\n' "$STEP_NAME" "$((SECONDS - STEP_START))"
  STEP_NAME="$*"
  STEP_START=$SECONDS
  [ -n "$STEP_NAME" ] && printf '\nmain: [%4ss] === %s\n' "$((SECONDS - START))" "$STEP_NAME"
  return 0
}
info() { printf 'main: %s\n' "$*"; }
die() {
  printf 'main: error: %s\n' "$*" >&2
  exit 1
}

WORK=""
SERVER_PID=""
ENGINE_PID=""
STACK_CONFIG="$PROJECT_DIR/Pulumi.$STACK.yaml"
cleanup() {
  local rc=$?
  # Finish the cleanup whatever happens: no errexit, and a closed stdout only fails the messages.
  set +e
  trap - EXIT HUP INT TERM
  trap '' PIPE
  [ -n "$ENGINE_PID" ] && kill -TERM "$ENGINE_PID" 2>/dev/null
  local stopped=""
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    # privnet-server closes on SIGTERM; give it 10 s, then stop it for good.
    for _ in $(seq 1 100); do
      kill -0 "$SERVER_PID" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null
    stopped="privnet-server stopped"
  fi
  # The stack's config file sits next to Pulumi.yaml; the stack itself lives in the temp backend.
  rm -f "$STACK_CONFIG"
  local kept=""
  if [ -n "$WORK" ]; then
    if [ "${PRIVNET_MAIN_KEEP:-}" = "1" ]; then
      kept="kept $WORK (state backend, database, server logs)"
    else
      rm -rf "$WORK"
    fi
  fi
  [ -n "$stopped" ] && info "$stopped"
  [ -n "$kept" ] && info "$kept"
  if [ "$rc" -eq 0 ]; then
    printf '\nmain: finished in %ss\n' "$((SECONDS - START))"
  else
    printf '\nmain: FAILED (exit %s) after %ss\n' "$rc" "$((SECONDS - START))" >&2
  fi
  exit "$rc"
}
trap cleanup EXIT
# A signal ends the job through the EXIT trap too (a closed pipe, as in `npm run main | head`, included).
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

# Everything this run writes goes here (removed on exit): logs, the database, the state backend, PULUMI_HOME.
WORK="$(mktemp -d "${TMPDIR:-/tmp}/privnet-main.XXXXXX")"

# --- 1. install and build ------------------------------------------------------------------------------------
step "install (npm ci when needed) and build"
if [ ! -x node_modules/.bin/node ] || [ ! -f node_modules/.package-lock.json ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  info "node_modules missing or older than package-lock.json: npm ci"
  if ! npm ci --no-audit --no-fund; then
    # `npm ci` refuses a lock file without entries for optional platform packages (e.g. the
    # @unrs/resolver-binding-* of other OSes) that the reachable registry does not serve; `npm install` installs
    # the same locked versions and skips them. Say so loudly: the lock file should be fixed.
    info "WARNING: npm ci failed (see above); installing the locked versions with npm install instead"
    npm install --no-audit --no-fund
  fi
else
  info "node_modules is current (npm ci skipped)"
fi
# From here on every node/npm/tsc is the repo's Node 24 (the devDependency `node`).
export PATH="$ROOT/node_modules/.bin:$PATH"
info "node $(node --version)"
if [ "${PRIVNET_MAIN_SKIP_BUILD:-}" = "1" ]; then
  info "npm run build skipped (PRIVNET_MAIN_SKIP_BUILD=1)"
else
  npm run --silent build
fi

# --- 2. the engine -------------------------------------------------------------------------------------------
step "Pulumi engine (scripts/engine.sh)"
bash scripts/engine.sh >"$WORK/engine.out" &
ENGINE_PID=$!
# A cold build is silent for minutes: say that it is still going.
while kill -0 "$ENGINE_PID" 2>/dev/null; do
  for _ in $(seq 1 60); do
    kill -0 "$ENGINE_PID" 2>/dev/null || break
    sleep 1
  done
  kill -0 "$ENGINE_PID" 2>/dev/null && info "engine: still working ($((SECONDS - STEP_START))s)"
done
wait "$ENGINE_PID" || die "scripts/engine.sh failed"
ENGINE_PID=""
ENGINE_BIN="$(tail -n 1 "$WORK/engine.out")"
[ -x "$ENGINE_BIN/pulumi" ] || die "scripts/engine.sh printed no usable bin dir"
export PRIVNET_ENGINE_BIN="$ENGINE_BIN"
info "pulumi $("$ENGINE_BIN/pulumi" version) in $ENGINE_BIN"

# --- 3. the local server -------------------------------------------------------------------------------------
step "start privnet-server (temp database, simulated agent)"
TOKEN_FILE="$WORK/owner-token"
node bin/privnet-server --port 0 --db "$WORK/privnet.db" --simulate --bootstrap-token-file "$TOKEN_FILE" \
  --request-log "$WORK/requests.log" >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
API_URL=""
for _ in $(seq 1 300); do
  API_URL="$(sed -n 's/^privnet-server listening on \(http[^ ]*\)$/\1/p' "$WORK/server.out")"
  [ -n "$API_URL" ] && break
  kill -0 "$SERVER_PID" 2>/dev/null || die "privnet-server exited: $(cat "$WORK/server.err")"
  sleep 0.1
done
[ -n "$API_URL" ] || die "privnet-server did not start within 30 s: $(cat "$WORK/server.err")"
[ -s "$TOKEN_FILE" ] || die "privnet-server wrote no owner token"
info "privnet-server (pid $SERVER_PID) listening on $API_URL; owner token in $TOKEN_FILE (0600)"

# --- 4. enroll peers -----------------------------------------------------------------------------------------
step "enroll peers with the simulated agent"
# A setup key made through the API, as an administrator would; it goes to a file, never to the terminal.
PRIVNET_API_URL="$API_URL" PRIVNET_TOKEN_FILE="$TOKEN_FILE" KEY_FILE="$WORK/enroll-key" node -e '
  const fs = require("fs");
  const { PrivnetClient } = require("./dist/client");
  const client = new PrivnetClient({
    apiUrl: process.env.PRIVNET_API_URL,
    token: fs.readFileSync(process.env.PRIVNET_TOKEN_FILE, "utf8").trim(),
  });
  client
    .call("createSetupKey", {
      body: { name: "main job enrollment", type: "reusable", expires_in: 86400, auto_groups: [], usage_limit: 0 },
    })
    .then(async (k) => {
      fs.writeFileSync(process.env.KEY_FILE, k.key, { mode: 0o600 });
      await client.close();
    })
    .catch((e) => {
      console.error(e.message);
      process.exit(1);
    });
' || die "could not create the enrollment setup key"
enroll() {
  PRIVNET_SETUP_KEY="$(cat "$WORK/enroll-key")" node bin/privnet-server sim enroll --url "$API_URL" \
    --hostname "$1" --count "$2" >>"$WORK/enrolled.jsonl" || die "sim enroll $1 failed"
}
enroll gw 2
enroll laptop 3
info "enrolled $(wc -l <"$WORK/enrolled.jsonl") peers: gw-1, gw-2 (routing peers of the program), laptop-1..3"

# --- 5. stack ------------------------------------------------------------------------------------------------
step "stack: file backend, passphrase secrets, config"
export PRIVNET_ROOT="$ROOT" PULUMI_HOME="$WORK/pulumi-home"
PULUMI_CONFIG_PASSPHRASE="$(node -e 'process.stdout.write(require("crypto").randomBytes(24).toString("base64"))')"
export PULUMI_CONFIG_PASSPHRASE
# shellcheck source=scripts/pulumi-env.sh
. scripts/pulumi-env.sh
privnet_file_backend "$WORK/state"
mkdir -p "$PULUMI_HOME"
info "backend $PULUMI_BACKEND_URL"
rm -f "$STACK_CONFIG"
cd "$PROJECT_DIR"
pulumi stack init "$STACK" --secrets-provider passphrase --non-interactive
pulumi config set privnet:apiUrl "$API_URL" --non-interactive
# Secrets go through stdin: never on a command line (ps) or in this output.
pulumi config set --secret privnet:token --non-interactive <"$TOKEN_FILE"
node -e 'process.stdout.write(require("crypto").randomBytes(18).toString("hex"))' |
  pulumi config set --secret oidcClientSecret --non-interactive
if $YAML; then
  # The engine finds the resource plugin on PATH.
  export PATH="$ROOT/bin:$PATH"
else
  pulumi config set gateways '["gw-1","gw-2"]' --non-interactive
fi
pulumi config --non-interactive
$YAML || bash "$ROOT/scripts/install-example.sh" examples/network

# --- 6. preview and up ---------------------------------------------------------------------------------------
step "pulumi preview"
pulumi preview --non-interactive
step "pulumi up"
pulumi up --yes --skip-preview --non-interactive

# --- 7. what was created -------------------------------------------------------------------------------------
step "what was created"
info "stack outputs (secrets stay masked):"
pulumi stack output --non-interactive
printf '\n'
info "objects on the server (read back through the API):"
PRIVNET_API_URL="$API_URL" PRIVNET_TOKEN_FILE="$TOKEN_FILE" node "$ROOT/dist/scripts/inventory.js"
info "API requests served: $(wc -l <"$WORK/requests.log")"
step
