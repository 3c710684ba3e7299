#!/usr/bin/env bash
# Make a headless browser available for the page test of `privnet-access show --format html`
# (tests/server/access-html.test.ts): Debian's chromium. Run by `npm run setup`.
#
# Nothing to do when chromium is on PATH. Otherwise, as root with apt-get (CI, a fresh machine), install the
# Debian package. Anywhere else it only says so: the page test then skips, naming the reason.
set -uo pipefail
for b in chromium chromium-browser; do
  if command -v "$b" >/dev/null 2>&1; then
    echo "browser: $(command -v "$b")" >&2
    exit 0
  fi
done
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "browser: installing Debian's chromium (apt-get)" >&2
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null 2>&1; then
    apt-get update >/dev/null 2>&1 || true
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium >/dev/null 2>&1 ||
      echo "browser: apt-get install chromium failed; the html page test will skip" >&2
  fi
  command -v chromium >/dev/null 2>&1 && echo "browser: $(command -v chromium)" >&2
else
  echo "browser: no chromium and no way to install it here (needs root and apt-get); the html page test will skip" >&2
fi
exit 0
