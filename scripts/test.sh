#!/usr/bin/env bash
# The one test command (npm test): builds the package, then runs every test tier with jest.
# Extra arguments go to jest (e.g. `npm test -- --selectProjects unit`).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "test: $(node --version) at $(command -v node)"
npm run --silent build
exec jest "$@"
