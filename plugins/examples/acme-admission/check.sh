#!/usr/bin/env bash
# Runs the plugin guide's commands (plugins/GUIDE.md, the sh blocks of steps 1 and 6) as they are written there, read
# from the guide, the way a reader runs them: one shell session without JAVA_HOME (the machine's default java first on
# the PATH, no Maven options of ours), with a copy of this example project in a directory outside the checkout. Only
# the guide's placeholders are filled in: /path/to/sluice (this checkout) and /path/to/jdk-21-or-newer (the JDK
# scripts/lib.sh finds). Step 1 installs sluice-core, step 6 packages the example, links it, runs `sluice config check`
# and the minute-long `sluice demo` from the project directory; then the guide's `sluice serve` runs for real, with
# --http-port 0 --no-journal and one slow simulated worker added: admitted requests answer 200, one that waits in the
# router queue past its two-second budget answers 429, and SIGTERM stops the server cleanly.
# Called by scripts/test after `mvn verify`; run it alone: plugins/examples/acme-admission/check.sh
set -euo pipefail
source "$(cd "$(dirname "$0")/../../.." && pwd)/scripts/lib.sh"
example="$SLUICE_ROOT/plugins/examples/acme-admission"
guide="$SLUICE_ROOT/plugins/GUIDE.md"
work="$(mktemp -d /tmp/acme-guide.XXXXXX)"
project="$work/acme-admission"
log="$work/session.log"
serve_log="$work/serve.log"

server=""
stop_server() {
    if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
        kill -KILL "$server" 2>/dev/null || true
    fi
}
trap stop_server EXIT
fail() {
    echo "acme-admission: $*" >&2
    [ -f "$log" ] && sed 's/^/  session: /' "$log" | tail -n 60 >&2
    [ -f "$serve_log" ] && sed 's/^/  serve: /' "$serve_log" >&2
    echo "acme-admission: the session's files are in $work" >&2
    exit 1
}

# Writes the sh blocks of the guide's section "## <step>." to $work/step<step>-<n>.sh, placeholders filled in, and
# prints how many there are.
extract() {
    awk -v step="## $1." -v out="$work/step$1-" '
        /^## / { inside = index($0, step) == 1 }
        inside && /^```sh$/ { n++; collecting = 1; printf "" > (out n ".sh"); next }
        collecting && /^```$/ { collecting = 0; close(out n ".sh"); next }
        collecting { print >> (out n ".sh") }
        END { print n + 0 }
    ' "$guide"
    for file in "$work/step$1-"*.sh; do
        [ -f "$file" ] || continue
        sed -i -e "s#/path/to/jdk-21-or-newer#$JAVA_HOME#g" -e "s#/path/to/sluice#$SLUICE_ROOT#g" "$file"
    done
}
[ "$(extract 1)" = 1 ] || fail "expected one sh block in the guide's step 1"
[ "$(extract 6)" = 4 ] || fail "expected four sh blocks in the guide's step 6 (package, check, demo, serve)"
# The serve command on one line, its continuation joined.
serve_command="$(sed -e ':a' -e '/\\$/N; s/\\\n */ /; ta' "$work/step6-4.sh")"
case "$serve_command" in
    *"scripts/sluice serve "*) ;;
    *) fail "the guide's last block of step 6 is not the serve command: $serve_command" ;;
esac

# A reader's shell: none of the JDK or Maven settings scripts/lib.sh or the caller made.
clean_path=""
IFS=: read -r -a path_entries <<<"$PATH"
for entry in "${path_entries[@]}"; do
    case "$entry" in "$JAVA_HOME"/*|"$JAVA_HOME") continue ;; esac
    clean_path="${clean_path:+$clean_path:}$entry"
done
clean_maven_opts="${MAVEN_OPTS:-}"
clean_maven_opts="${clean_maven_opts//--sun-misc-unsafe-memory-access=allow/}"
reader() { env -u JAVA_HOME -u SLUICE_JAVA_OPTS PATH="$clean_path" MAVEN_OPTS="$clean_maven_opts" "$@"; }

cp -r "$example" "$project"
rm -rf "$project/target" "$project"/*/target "$project/plugin-path"

# Steps 1 and 6 in one session, as typed: step 1 ends in the checkout, step 6 starts in the directory that holds
# acme-admission (where the reader made the project) and its first block changes into it. Each block is printed,
# then run in the session's shell, so that a cd or an export holds for the blocks after it.
{
    echo 'set -euo pipefail'
    echo "sed 's/^/\$ /' '$work/step1-1.sh'; source '$work/step1-1.sh'"
    echo "cd '$work'"
    for n in 1 2 3; do
        echo "sed 's/^/\$ /' '$work/step6-$n.sh'; source '$work/step6-$n.sh'"
    done
} >"$work/session.sh"
# Step 1 installs sluice-core into the local repository and step 6 builds against it: another checkout's check must
# not install over it meanwhile.
sluice_lock_local_repository
echo "acme-admission: running the guide's steps 1 and 6 in $work (the demo takes a minute)"
reader bash "$work/session.sh" >"$log" 2>&1 || fail "a command of the guide failed"
grep -q '^request_classifier: acme-queue-budget' "$log" || fail "config check did not resolve acme-queue-budget"
grep -q '^admission.yaml: valid$' "$log" || fail "config check did not say admission.yaml: valid"
grep -q 'every request ended exactly once: yes' "$log" || fail "the demo did not end every request exactly once"
ls "$project"/sluice-journal/* >/dev/null 2>&1 || fail "the demo wrote no journal to acme-admission/sluice-journal/"
ls "$project"/sluice-reports/demo-*.html >/dev/null 2>&1 \
    || fail "the demo wrote no report to acme-admission/sluice-reports/"
echo "acme-admission: steps 1 and 6 ran as written; config check, demo, journal and report in acme-admission/"

# The guide's serve command, on one slow simulated worker (speedup 0.05) so that queueing happens for real: the
# router counts a dispatched prompt's uncached tokens as active prefill until its first token, and admission.yaml's
# class queues new requests while that exceeds max_num_batched_tokens (8192). A 9000-token prompt thus holds the
# only worker busy for a few seconds, and a request arriving then waits in the queue until acme-queue-budget's
# 2000 ms budget from ingress is spent: 429. `exec env` keeps the command's own variable assignment and makes the
# server this subshell's process, which SIGTERM then reaches.
: >"$serve_log" # before the server starts: the first sed below may run before the background child opens it
echo "acme-admission: \$ $serve_command (+ --http-port 0 --no-journal --sim-workers 1 --speedup-ratio 0.05)"
(cd "$project" && exec env -u JAVA_HOME -u SLUICE_JAVA_OPTS PATH="$clean_path" MAVEN_OPTS="$clean_maven_opts" \
    bash -c "exec env $serve_command --http-port 0 --no-journal --sim-workers 1 --speedup-ratio 0.05 \
    --grace-period 10s") >"$serve_log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 150); do
    url=$(sed -n 's/^sluice serving [^ ]* on \(http:\/\/[^ ]*\).*/\1/p' "$serve_log" | head -n 1)
    [ -n "$url" ] && break
    kill -0 "$server" 2>/dev/null || fail "the server exited before it was ready"
    sleep 0.2
done
[ -n "$url" ] || fail "the server did not print 'sluice serving ... on http://HOST:PORT' within 30 s"

# POSTs a completion and prints the HTTP status; the body goes to serve-<name>.json.
complete() {
    local name="$1" body="$2"
    curl -sS --max-time 20 -o "$work/serve-$name.json" -w '%{http_code}' \
        -H 'Content-Type: application/json' -d "$body" "$url/v1/completions" || echo "curl-failed"
}
for i in 1 2; do
    status=$(complete "admitted-$i" '{"model":"sluice-sim","prompt":"Say hello number '"$i"'","max_tokens":4}')
    [ "$status" = 200 ] || fail "admitted request $i answered $status, expected 200"
done
echo "acme-admission: two requests admitted (200)"

long_prompt=$(seq 1 9000 | sed 's/^/w/' | tr '\n' ' ')
complete long "{\"model\":\"sluice-sim\",\"prompt\":\"$long_prompt\",\"max_tokens\":2}" >"$work/serve-long.status" &
long=$!
# Give the long request a head start to its dispatch; it then keeps the worker busy for about four seconds.
sleep 1
status=$(complete over-budget '{"model":"sluice-sim","prompt":"Am I too late?","max_tokens":4}')
[ "$status" = 429 ] || fail "the request queued behind the busy worker answered $status, expected 429"
echo "acme-admission: a request that waited past its budget was rejected (429: $(head -c 200 \
    "$work/serve-over-budget.json"))"
wait "$long" || true
[ "$(cat "$work/serve-long.status")" = 200 ] \
    || fail "the long request answered $(cat "$work/serve-long.status"), expected 200"

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
rm -rf "$work"
echo "acme-admission: ok"
