#!/usr/bin/env bash
# Builds the guide's example plugin against this checkout's sluice-core and runs the guide's commands with it:
# install sluice-core (as a reader does with `mvn install`), package the example, put its jars on --plugin-path,
# then `sluice config check`, `sluice demo`, and `sluice serve` with real HTTP requests: admitted ones answer 200, one
# that waits in the router queue past its two-second budget answers 429, and SIGTERM stops the server cleanly.
# Offline first (`mvn -o`), online when something is not cached.
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
"$SLUICE_ROOT/scripts/sluice" demo --in-process --no-journal --duration 20s --router-policy-config "$example/admission.yaml" \
    --plugin-path "$example/plugin-path" >"$example/target/demo.txt"

# The guide's serve command, on one slow simulated worker (speedup 0.05) so that queueing happens for real: the
# router counts a dispatched prompt's uncached tokens as active prefill until its first token, and admission.yaml's
# class queues new requests while that exceeds max_num_batched_tokens (8192). A 9000-token prompt thus holds the
# only worker busy for a few seconds, and a request arriving then waits in the queue until acme-queue-budget's
# 2000 ms budget from ingress is spent: 429.
serve_log="$example/target/serve.log"
server=""
stop_server() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill -KILL "$server" 2>/dev/null || true
    fi
}
fail() {
    echo "acme-admission: $*" >&2
    [ -f "$serve_log" ] && sed 's/^/  serve: /' "$serve_log" >&2
    exit 1
}
trap stop_server EXIT

echo "acme-admission: DYN_HTTP_OVERLOAD_STATUS_CODE=429 sluice serve --router-mode kv" \
    "--router-policy-config admission.yaml --plugin-path plugin-path"
DYN_HTTP_OVERLOAD_STATUS_CODE=429 "$SLUICE_ROOT/scripts/sluice" serve --http-port 0 --router-mode kv \
    --router-policy-config "$example/admission.yaml" --plugin-path "$example/plugin-path" --no-journal \
    --sim-workers 1 --speedup-ratio 0.05 --grace-period 10s >"$serve_log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
    url=$(sed -n 's/^sluice serving [^ ]* on \(http:\/\/[^ ]*\).*/\1/p' "$serve_log" | head -n 1)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || fail "the server exited before it was ready"
    sleep 0.2
done
[ -n "$url" ] || fail "the server did not print 'sluice serving ... on http://HOST:PORT' within 20 s"

# POSTs a completion and prints the HTTP status; the body goes to target/serve-<name>.json.
complete() {
    local name="$1" body="$2"
    curl -sS --max-time 20 -o "$example/target/serve-$name.json" -w '%{http_code}' \
        -H 'Content-Type: application/json' -d "$body" "$url/v1/completions" || echo "curl-failed"
}
for i in 1 2; do
    status=$(complete "admitted-$i" '{"model":"sluice-sim","prompt":"Say hello number '"$i"'","max_tokens":4}')
    [ "$status" = 200 ] || fail "admitted request $i answered $status, expected 200"
done
echo "acme-admission: two requests admitted (200)"

long_prompt=$(seq 1 9000 | sed 's/^/w/' | tr '\n' ' ')
complete long "{\"model\":\"sluice-sim\",\"prompt\":\"$long_prompt\",\"max_tokens\":2}" >"$example/target/serve-long.status" &
long=$!
# Give the long request a head start to its dispatch; it then keeps the worker busy for about four seconds.
sleep 1
status=$(complete over-budget '{"model":"sluice-sim","prompt":"Am I too late?","max_tokens":4}')
[ "$status" = 429 ] || fail "the request queued behind the busy worker answered $status, expected 429"
echo "acme-admission: a request that waited past its budget was rejected (429: $(head -c 200 \
    "$example/target/serve-over-budget.json"))"
wait "$long" || true
[ "$(cat "$example/target/serve-long.status")" = 200 ] \
    || fail "the long request answered $(cat "$example/target/serve-long.status"), expected 200"

kill -TERM "$server"
for _ in $(seq 1 100); do
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
done
kill -0 "$server" 2>/dev/null && fail "the server did not exit within 10 s of SIGTERM"
code=0
wait "$server" || code=$?
server=""
# The JVM answers SIGTERM by running its shutdown hooks (the frontend drains and closes) and exits with 143.
[ "$code" = 0 ] || [ "$code" = 143 ] || fail "the server exited with $code after SIGTERM"
echo "acme-admission: serve stopped on SIGTERM (exit $code)"
echo "acme-admission: ok (demo report in plugins/examples/acme-admission/target/demo.txt)"
