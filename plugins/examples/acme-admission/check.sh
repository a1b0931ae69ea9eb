#!/usr/bin/env bash
# Builds the guide's example plugin against this checkout's sluice-core and runs the guide's commands with it:
# install sluice-core (as a reader does with `mvn install`), package the example, put its jars on --plugin-path,
# then `sluice config check` and `sluice demo`. Offline first (`mvn -o`), online when something is not cached.
# Called by scripts/test after `mvn verify`; run it alone after building core: plugins/examples/acme-admission/check.sh
set -euo pipefail
source "$(cd "$(dirname "$0")/../../.." && pwd)/scripts/lib.sh"
example="$SLUICE_ROOT/plugins/examples/acme-admission"
core_jar="$SLUICE_ROOT/core/target/sluice-core-0.1.0-SNAPSHOT.jar"
log="$example/target/check.log"
mkdir -p "$example/target"

if [ ! -f "$core_jar" ]; then
    echo "acme-admission: $core_jar is missing; build core first (scripts/test or mvn -pl core -am package)" >&2
    exit 1
fi

# Maven quietly, offline first; the log of the failing attempt is printed.
maven() {
    if mvn -B -q -o "$@" >"$log" 2>&1; then
        return 0
    fi
    echo "acme-admission: offline build failed, retrying online: mvn $*" >&2
    mvn -B -q "$@" >"$log" 2>&1 || { cat "$log" >&2; echo "acme-admission: mvn $* failed" >&2; exit 1; }
}

echo "acme-admission: installing sluice-core into the local repository"
maven -f "$SLUICE_ROOT/pom.xml" -N install
maven -f "$SLUICE_ROOT/pom.xml" -N org.apache.maven.plugins:maven-install-plugin:3.1.4:install-file \
    -Dfile="$core_jar" -DpomFile="$SLUICE_ROOT/core/pom.xml"

echo "acme-admission: building the example"
maven -f "$example/pom.xml" package
rm -rf "$example/plugin-path"
mkdir -p "$example/plugin-path"
cp "$example/classifier/target/acme-admission-1.0.0.jar" \
    "$example/catalog/target/acme-admission-catalog-1.0.0.jar" "$example/plugin-path/"

echo "acme-admission: sluice config check admission.yaml --plugin-path plugin-path"
checked=$("$SLUICE_ROOT/scripts/sluice" config check "$example/admission.yaml" --plugin-path "$example/plugin-path")
if ! grep -q 'acme-queue-budget' <<<"$checked"; then
    echo "$checked" >&2
    echo "acme-admission: config check did not resolve acme-queue-budget" >&2
    exit 1
fi

echo "acme-admission: sluice demo --router-policy-config admission.yaml --plugin-path plugin-path"
"$SLUICE_ROOT/scripts/sluice" demo --duration 20s --router-policy-config "$example/admission.yaml" \
    --plugin-path "$example/plugin-path" >"$example/target/demo.txt"
echo "acme-admission: ok (demo report in plugins/examples/acme-admission/target/demo.txt)"
