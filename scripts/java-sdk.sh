#!/usr/bin/env bash
# A local Maven repository holding the generated Java SDK (sdk/java, installed with `mvn install` as a user
# would) and everything a Maven program on it needs to build and run under the Java language host, so the Java
# programs of the tests build offline (`mvn --offline -Dmaven.repo.local=<repository>`) and share one compiled
# SDK. Prints the repository's path on stdout (progress on stderr):
#
#   bash scripts/java-sdk.sh PROGRAM_POM   -> e.g. /root/.cache/pulumi-privnet/java/repo-0123456789abcdef
#
# PROGRAM_POM is a program's pom.xml (the tests take docs/languages.md's). Its `mainClass` property names the
# program's class. The repository is made once per content of sdk/java, of PROGRAM_POM and of this script (Maven
# Central is reached then only, about 1 minute cold on 2 cores), under ${PRIVNET_JAVA_CACHE:-<engine cache>/../java};
# concurrent runs are serialised with flock when available, a repository is complete or absent (made in a temp
# dir, then moved), and the five most recently used repositories are kept.
#
# What it runs in the repository before printing it, as the Java language host runs a Maven program:
#   mvn install                      in a copy of sdk/java (the checkout is not written to)
#   mvn compile exec:java            the host's plugin discovery (com.pulumi.bootstrap.internal.Main packages),
#                                    in a project of PROGRAM_POM (a program run is the same build)
# and then the discovery again with --offline, which must work: the tests' programs build offline.
set -euo pipefail

log() { printf 'java-sdk: %s\n' "$*" >&2; }
die() {
  printf 'java-sdk: error: %s\n' "$*" >&2
  exit 1
}

[ "$#" -eq 1 ] || die "usage: bash scripts/java-sdk.sh PROGRAM_POM"
POM="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -f "$POM" ] || die "$1 not found"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SELF="$ROOT/scripts/java-sdk.sh"
SDK="$ROOT/sdk/java"
[ -f "$SDK/pom.xml" ] || die "$SDK/pom.xml not found: run npm run gen"
command -v mvn >/dev/null 2>&1 || die "Maven (mvn) not found: the Java SDK cannot be built"
command -v javac >/dev/null 2>&1 || die "no JDK (javac not found): the Java SDK cannot be built"

ENGINE_CACHE="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}"
CACHE="${PRIVNET_JAVA_CACHE:-$(dirname "$ENGINE_CACHE")/java}"
mkdir -p "$CACHE"

key="$(
  cd "$SDK"
  {
    # One sha256sum over every file (name and digest per line): a process per file cost most of a second, in
    # every test file that runs a Java program.
    find . -type f -not -path './target/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
    cat "$POM" "$SELF"
    javac -version 2>&1
  } | sha256sum | cut -c1-16
)"
REPO="$CACHE/repo-$key"

if command -v flock >/dev/null 2>&1; then
  exec 7>"$CACHE/.lock"
  if ! flock -n 7; then
    log "waiting for another java-sdk.sh run to finish (lock $CACHE/.lock)..."
    flock 7
  fi
  rm -rf "$CACHE"/.build.* 2>/dev/null || true
fi

if [ ! -f "$REPO/.ready" ]; then
  start=$SECONDS
  build="$(mktemp -d "$CACHE/.build.XXXXXX")"
  trap 'rm -rf "$build"' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  mvn=(mvn -B -q --no-transfer-progress -Dstyle.color=never "-Dmaven.repo.local=$build/repo")
  log "installing sdk/java into $REPO (Maven Central for its dependencies)..."
  cp -R "$SDK" "$build/sdk"
  rm -rf "$build/sdk/target"
  (cd "$build/sdk" && "${mvn[@]}" install -DskipTests >&2) || die "mvn install of sdk/java failed"

  main="$(sed -n 's:.*<mainClass>\([A-Za-z0-9_.]*\)</mainClass>.*:\1:p' "$POM" | head -n 1)"
  [ -n "$main" ] || die "$POM names no mainClass property"
  mkdir -p "$build/program/src/main/java/$(dirname "${main//.//}")"
  cp "$POM" "$build/program/pom.xml"
  pkg="${main%.*}"
  [ "$pkg" = "$main" ] && pkg=""
  {
    [ -n "$pkg" ] && printf 'package %s;\n\n' "$pkg"
    printf 'public class %s {\n    public static void main(String[] args) {\n    }\n}\n' "${main##*.}"
  } >"$build/program/src/main/java/${main//.//}.java"
  discover=(compile exec:java -Dorg.slf4j.simpleLogger.logFile=System.err
    -DmainClass=com.pulumi.bootstrap.internal.Main -DmainArgs=packages)
  (cd "$build/program" && "${mvn[@]}" "${discover[@]}" >/dev/null) ||
    die "the Java language host's plugin discovery (mvn compile exec:java) failed in a project of $POM"
  # Offline, the exec plugin is found by its prefix only if the online run left the plugin groups' metadata.
  (cd "$build/program" && "${mvn[@]}" --offline "${discover[@]}" >/dev/null) ||
    die "the plugin discovery fails offline: the repository lacks something the program's build needs"
  touch "$build/repo/.ready"
  rm -rf "$REPO"
  mv "$build/repo" "$REPO"
  rm -rf "$build"
  trap - EXIT INT TERM
  log "made $REPO in $((SECONDS - start))s"
  # Keep the five most recently used repositories (each use touches its .ready).
  # shellcheck disable=SC2012
  ls -1t "$CACHE"/repo-*/.ready 2>/dev/null | tail -n +6 | while IFS= read -r old; do rm -rf "$(dirname "$old")"; done
fi
touch "$REPO/.ready"
printf '%s\n' "$REPO"
