#!/usr/bin/env bash
# Robustness figures in one go: crash safety, fuzzing, secrets sweep, then a summary table.
#
#   bash bench/robustness.sh [--quick] [--out DIR] [--budget SECONDS] [--scan PATH]...
#
#   crash  node bench/crash/run.mts: 3 rounds of 500 concurrent creates, kill -9 mid-flight, restart, verify
#   fuzz   bash bench/fuzz/run.sh: schemathesis, >= 5,000 requests, 0 5xx, 0 schema violations (see that file)
#   sweep  node bench/secrets/sweep.mts: the fuzz run's request log, server output, schemathesis output and
#          captured responses, scanned for the fuzz run's owner token and seeded secrets and for secret shapes;
#          plus its own API pass (creates one of every secret, reads every GET back, scans the answers and its
#          own server's logs and database files). The fuzz run's database is read as bytes for its seeded
#          secrets (--db). Extra --scan paths (a Pulumi backend dir, e2e logs) are scanned too.
#
# --quick: one crash round and a fuzz run of 10 examples per operation (about 6,600 requests instead of 8,600:
# schemathesis's coverage phase sends most of them whatever the example count); about 2 minutes instead of 3.
# --budget: the whole run's time bound (default 900 s); each step gets what is left. DIR defaults to
# bench/results/robustness. Exit 0 only when every step passed.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"

OUT=bench/results/robustness
BUDGET=900
QUICK=0
SCAN=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    --quick) QUICK=1; shift ;;
    --scan) SCAN+=(--scan "$2"); shift 2 ;;
    -h|--help) sed -n '2,/^set /{/^set /!p}' "$0"; exit 0 ;;
    *) echo "robustness: unknown option $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$OUT"
START=$(date +%s)
left() { echo $(( BUDGET - ($(date +%s) - START) )); }

echo "robustness: $(node --version) at $(command -v node)"
[ -f dist/server/cli.js ] || npm run --silent build || exit 2

declare -A RESULT SECONDS_TAKEN FIGURES
run_step() {
  local name=$1 pattern=$2
  shift 2
  local budget
  budget=$(left)
  if [ "$budget" -le 10 ]; then
    RESULT[$name]="SKIP (budget spent)"; SECONDS_TAKEN[$name]=0; FIGURES[$name]=""
    return
  fi
  echo
  echo "=== robustness: $name (time left: ${budget} s)"
  local t0 rc line
  t0=$(date +%s)
  timeout --kill-after=15 "$budget" "$@" 2>&1 | tee "$OUT/$name.log"
  rc=${PIPESTATUS[0]}
  SECONDS_TAKEN[$name]=$(( $(date +%s) - t0 ))
  line=$(grep -a "^$pattern" "$OUT/$name.log" | tail -1)
  FIGURES[$name]=${line#"$pattern"}
  if [ "$rc" -eq 0 ]; then RESULT[$name]=PASS
  elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then RESULT[$name]="FAIL (time budget)"
  else RESULT[$name]="FAIL (exit $rc)"
  fi
}

if [ "$QUICK" -eq 1 ]; then
  CRASH_ARGS=(--rounds 1)
  FUZZ_ARGS=(--max-examples 10)
else
  CRASH_ARGS=()
  FUZZ_ARGS=()
fi
FUZZ_OUT="$OUT/fuzz"

run_step crash "crash result: " node bench/crash/run.mts "${CRASH_ARGS[@]}"
run_step fuzz "fuzz result: " bash bench/fuzz/run.sh --out "$FUZZ_OUT" --timeout "$(( $(left) - 60 > 60 ? $(left) - 60 : 60 ))" "${FUZZ_ARGS[@]}"
SWEEP_ARGS=(--out "$OUT/sweep")
if [ -d "$FUZZ_OUT/scan" ]; then
  SWEEP_ARGS+=(--scan "$FUZZ_OUT/scan" --token-file "$FUZZ_OUT/private/owner-token")
  [ -f "$FUZZ_OUT/private/privnet.db" ] && SWEEP_ARGS+=(--db "$FUZZ_OUT/private/privnet.db")
  [ -f "$FUZZ_OUT/private/seed-secrets.tsv" ] && SWEEP_ARGS+=(--secrets-file "$FUZZ_OUT/private/seed-secrets.tsv")
fi
run_step sweep "sweep result: " node bench/secrets/sweep.mts "${SWEEP_ARGS[@]}" "${SCAN[@]}"

echo
echo "=== robustness summary ($(( $(date +%s) - START )) s of ${BUDGET} s)"
printf '%-6s | %-20s | %6s | %s\n' step result time figures
printf '%-6s-+-%-20s-+-%6s-+-%s\n' ------ -------------------- ------ -------
STATUS=0
for step in crash fuzz sweep; do
  printf '%-6s | %-20s | %5ss | %s\n' "$step" "${RESULT[$step]}" "${SECONDS_TAKEN[$step]}" "${FIGURES[$step]}"
  [ "${RESULT[$step]}" = PASS ] || STATUS=1
done
exit $STATUS
