#!/usr/bin/env bash
# Builds core/EMBEDDING.md's example against this checkout's sluice-core, as the guide says, and runs it: it must
# print the three outcomes the guide shows (admitted, rejected, parked then admitted) and leave a journal that
# `sluice journal verify` accepts. Offline first (`mvn -o`), online when something is not cached.
# Called by scripts/test after `mvn verify`; run it alone after building core: core/examples/embedding/check.sh
set -euo pipefail
source "$(cd "$(dirname "$0")/../../.." && pwd)/scripts/lib.sh"
example="$SLUICE_ROOT/core/examples/embedding"
core_jar="$SLUICE_ROOT/core/target/sluice-core-0.1.0-SNAPSHOT.jar"
log="$example/target/check.log"
mkdir -p "$example/target"

if [ ! -f "$core_jar" ]; then
    echo "embedding: $core_jar is missing; build core first (scripts/test or mvn -pl core -am package)" >&2
    exit 1
fi

maven() {
    if mvn -B -q -o "$@" >"$log" 2>&1; then
        return 0
    fi
    echo "embedding: offline build failed, retrying online: mvn $*" >&2
    mvn -B -q "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "embedding: mvn $* failed" >&2; exit 1; }
}

sluice_lock_local_repository
echo "embedding: installing sluice-core into the local repository"
maven -f "$SLUICE_ROOT/pom.xml" -N install
maven -f "$SLUICE_ROOT/pom.xml" -N org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file \
    -Dfile="$core_jar" -DpomFile="$SLUICE_ROOT/core/pom.xml"

echo "embedding: building the example"
maven -f "$example/pom.xml" package dependency:build-classpath -Dmdep.outputFile="$example/target/classpath.txt"

journal="$example/target/journal"
rm -rf "$journal"
mapfile -t flags < <(sluice_jvm_flags)
echo "embedding: java <EMBEDDING.md's flags> -cp ... example.EmbeddedRouter $journal"
output=$("$JAVA" "${flags[@]}" -cp "$example/target/embedded-router-1.0.0.jar:$(cat "$example/target/classpath.txt")" \
    example.EmbeddedRouter "$journal" 2>"$example/target/run.log") || {
    cat "$example/target/run.log" >&2; echo "embedding: the example failed" >&2; exit 1; }
echo "$output" >"$example/target/output.txt"
for expected in "small: dispatched to worker 0" "huge: rejected 429 rate_limited" "batch-1: parked: true" \
    "batch-1: after small completed, dispatched to worker 0" "journal: $journal"; do
    if ! grep -qF "$expected" <<<"$output"; then
        echo "$output" >&2
        echo "embedding: the example did not print '$expected'" >&2
        exit 1
    fi
done
verified=$("$SLUICE_ROOT/scripts/sluice" journal verify "$journal")
if ! grep -q "all invariants hold" <<<"$verified"; then
    echo "$verified" >&2
    echo "embedding: journal verify does not accept the example's journal" >&2
    exit 1
fi
echo "embedding: ok (its output in core/examples/embedding/target/output.txt)"
