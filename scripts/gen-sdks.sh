#!/usr/bin/env bash
# Generates the SDKs of the other Pulumi languages from the package schema plugin/schema.json (npm run gen writes
# the schema):
#   sdk/python   pip-installable from that directory (`pip install ./sdk/python`), package `pulumi_privnet`
#   sdk/go       Go module github.com/pulumi-privnet/pulumi-privnet/sdk/go, package .../sdk/go/privnet
#   sdk/java     Java package io.github.pulumiprivnet.privnet, its sources (docs/languages.md)
#   sdk/dotnet   .NET package PulumiPrivnet.Privnet, with its project file (docs/languages.md)
#
#   bash scripts/gen-sdks.sh           writes them
#   bash scripts/gen-sdks.sh --check   writes nothing; exits 1 when they differ from what the schema gives
#
# The code generators are Pulumi's own. Python's and Go's are in github.com/pulumi/pulumi/pkg/v3 at the version
# the engine is built from (tools/pulumi-cli/go.mod), run by tools/pulumi-cli/sdkgen. `pulumi package gen-sdk`
# would call the same generators through each language's plugin, which the Go module proxy does not serve. The
# .NET generator left pkg/v3 later and the Java generator lives in github.com/pulumi/pulumi-java/pkg: both are
# run at the versions tools/codegen pins (pkg/v3 v3.143.0, pulumi-java/pkg v0.19.0), by scripts/codegen.sh. The
# generator binaries are built once per version of their sources into the engine cache (about 1 and 2.5 minutes
# on 2 cores with the modules cached). Go is needed; `go mod tidy` writes sdk/go/go.sum (modules from the Go
# module proxy).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SCHEMA="$ROOT/plugin/schema.json"
TOOL_DIR="$ROOT/tools/pulumi-cli"
CACHE="${PRIVNET_ENGINE_CACHE:-$HOME/.cache/pulumi-privnet/engine}"

log() { printf 'gen-sdks: %s\n' "$*" >&2; }
die() {
  printf 'gen-sdks: error: %s\n' "$*" >&2
  exit 1
}

check=false
case "${1:-}" in
  --check) check=true ;;
  "") ;;
  *) die "usage: bash scripts/gen-sdks.sh [--check]" ;;
esac

[ -f "$SCHEMA" ] || die "$SCHEMA not found: run npm run gen first"
command -v go >/dev/null 2>&1 || die "Go is not installed: it builds the SDK generator"

# The generator, built once per version of its sources.
key="$(cat "$TOOL_DIR/go.mod" "$TOOL_DIR/go.sum" "$TOOL_DIR/sdkgen/main.go" | sha256sum | cut -c1-16)"
GEN="$CACHE/sdkgen/$key/sdkgen"
if [ ! -x "$GEN" ]; then
  log "building the SDK generator (tools/pulumi-cli/sdkgen) into $GEN"
  mkdir -p "$(dirname "$GEN")"
  (cd "$TOOL_DIR" && CGO_ENABLED=0 go build -mod=readonly -trimpath -o "$GEN.tmp" ./sdkgen) ||
    die "go build of tools/pulumi-cli/sdkgen failed"
  mv "$GEN.tmp" "$GEN"
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/privnet-sdks.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Python: the pyproject names README.md beside it (the language plugin puts the package's README there).
"$GEN" "$SCHEMA" python "$work/python"
cp "$work/python/pulumi_privnet/README.md" "$work/python/README.md"

# Go: go.sum, so that `go build ./...` works in sdk/go as checked out.
"$GEN" "$SCHEMA" go "$work/go"
(cd "$work/go" && GOFLAGS=-mod=mod go mod tidy) || die "go mod tidy in the generated Go SDK failed"

# Java and .NET: the generators of tools/codegen.
bash "$ROOT/scripts/codegen.sh" java "$SCHEMA" "$work/java"
# pulumi-java's generator (v0.19.0) gives a component with a secret output (Segment.setupKey) the option
# additionalSecretOutputs, which the Java SDK it writes for has on custom resources only: the class would not
# compile. The option goes; the output stays secret, as the plugin's Construct answers it marked secret.
grep -rlZ 'ComponentResourceOptions.builder()' "$work/java" | xargs -0 -r perl -0pi -e \
  's/(ComponentResourceOptions\.builder\(\)\n\s*\.version\(Utilities\.getVersion\(\)\))\n\s*\.additionalSecretOutputs\(List\.of\([^)]*\)\)/$1/g'
# The generator writes the sources; the build that packages them (Gradle, in Pulumi's own SDKs) needs the schema's
# `repository`. A Maven build instead, with the coordinates and dependencies that Gradle build would have:
# io.github.pulumiprivnet:privnet:<package version>, Pulumi's Java SDK at the version the generator writes for, gson
# and jsr305. (That build would also write a plugin.json naming the resource plugin; Pulumi's Java SDK 0.19.0 reads
# it only under com/pulumi/, so a program finds the plugin on PATH or in Pulumi.yaml, as in the other languages.)
pkg_version="$(sed -n 's/^  "version": "\([^"]*\)",$/\1/p' "$SCHEMA" | head -n 1)"
[ -n "$pkg_version" ] || die "no top-level version in $SCHEMA"
cat >"$work/java/pom.xml" <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<!-- Written by scripts/gen-sdks.sh: the Maven build of the generated Java SDK. \`mvn install\` here puts
     io.github.pulumiprivnet:privnet:$pkg_version into the local Maven repository (docs/languages.md). -->
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.pulumiprivnet</groupId>
  <artifactId>privnet</artifactId>
  <version>$pkg_version</version>
  <packaging>jar</packaging>
  <name>pulumi-privnet</name>
  <description>The Java SDK of the pulumi-privnet resource plugin (pulumi-resource-privnet)</description>
  <licenses>
    <license><name>Apache-2.0</name></license>
  </licenses>
  <properties>
    <maven.compiler.release>11</maven.compiler.release>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency>
      <groupId>com.pulumi</groupId>
      <artifactId>pulumi</artifactId>
      <version>0.19.0</version>
    </dependency>
    <dependency>
      <groupId>com.google.code.gson</groupId>
      <artifactId>gson</artifactId>
      <version>2.8.9</version>
    </dependency>
    <dependency>
      <groupId>com.google.code.findbugs</groupId>
      <artifactId>jsr305</artifactId>
      <version>3.0.2</version>
    </dependency>
  </dependencies>
  <build>
    <pluginManagement>
      <plugins>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-compiler-plugin</artifactId>
          <version>3.13.0</version>
        </plugin>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-resources-plugin</artifactId>
          <version>3.3.1</version>
        </plugin>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-surefire-plugin</artifactId>
          <version>3.2.5</version>
        </plugin>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-jar-plugin</artifactId>
          <version>3.4.2</version>
        </plugin>
        <plugin>
          <groupId>org.apache.maven.plugins</groupId>
          <artifactId>maven-install-plugin</artifactId>
          <version>3.1.2</version>
        </plugin>
      </plugins>
    </pluginManagement>
  </build>
</project>
EOF
bash "$ROOT/scripts/codegen.sh" dotnet "$SCHEMA" "$work/dotnet"

status=0
for lang in python go java dotnet; do
  if $check; then
    # What building or installing leaves in the directory is not generated (the generated .gitignore lists it).
    if ! diff -r -q -x build -x dist -x '*.egg-info' -x __pycache__ -x '*.pyc' -x .mypy_cache -x target -x bin -x obj \
      "$work/$lang" "$ROOT/sdk/$lang" >"$work/$lang.diff" 2>&1; then
      log "sdk/$lang is stale (run npm run gen and commit):"
      head -n 20 "$work/$lang.diff" >&2
      status=1
    fi
  else
    rm -rf "$ROOT/sdk/$lang"
    cp -R "$work/$lang" "$ROOT/sdk/$lang"
    log "wrote sdk/$lang"
  fi
done
if $check && [ "$status" -eq 0 ]; then log "sdk/python, sdk/go, sdk/java and sdk/dotnet are up to date"; fi
exit "$status"
