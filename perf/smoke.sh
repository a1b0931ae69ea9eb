#!/usr/bin/env bash
# Smoke test of the perf suite (scripts/perf --smoke; never part of scripts/test): every JMH benchmark, the latency
# harness, the parked-scale run, the scheduling-quality simulation and the fixed-rate HTTP generator start and produce
# a result. Tiny runs; the figures mean nothing.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$SLUICE_ROOT"
flags="$(sluice_jvm_flags | tr '\n' ' ')"
jar=perf/target/benchmarks.jar
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
failed=0
check() { if eval "$2"; then echo "smoke: ok   $1"; else echo "smoke: FAIL $1" >&2; failed=1; fi; }

# shellcheck disable=SC2086
flock /tmp/jmh.lock "$JAVA" $flags -jar "$jar" -f 1 -wi 0 -i 1 -r 100ms -jvmArgsAppend "$flags" \
    -rf csv -rff "$tmp/jmh.csv" > "$tmp/jmh.log" 2>&1 \
    || { echo "smoke: JMH failed, see below" >&2; tail -30 "$tmp/jmh.log"; }
# shellcheck disable=SC2086
for bench in $("$JAVA" -jar "$jar" -l | grep '^dev\.sluice' | sort -u); do
    check "$bench" "grep -q '\"$bench\"' '$tmp/jmh.csv' 2>/dev/null"
done

# shellcheck disable=SC2086
flock /tmp/jmh.lock "$JAVA" $flags -cp "$jar" dev.sluice.perf.harness.LatencyHarness --rates 20000 \
    --jvm-warmup 0 --warmup 0.2 --seconds 0.3 --out "$tmp/harness" > "$tmp/harness.md" 2> "$tmp/harness.log" || true
check "LatencyHarness (sluice row)" "grep -qE '^\| sluice \| 20,000 \| [0-9,]+ \| [0-9.]+' '$tmp/harness.md'"
check "LatencyHarness (baseline row)" "grep -qE '^\| baseline \| 20,000 \| [0-9,]+ \| [0-9.]+' '$tmp/harness.md'"
check "LatencyHarness (plot)" "grep -q '<polyline' '$tmp/harness/latency.svg'"
check "LatencyHarness (PNG plot)" "head -c 4 '$tmp/harness/latency.png' | grep -q PNG"

# shellcheck disable=SC2086
flock /tmp/jmh.lock "$JAVA" $flags -cp "$jar" dev.sluice.perf.harness.ParkedScale --count 2000 --baseline-count 200 \
    > "$tmp/parked.md" 2> "$tmp/parked.log" || true
check "ParkedScale (3 modes, all dispatched)" "[ \$(grep -c '| yes |' '$tmp/parked.md') = 3 ]"
# shellcheck disable=SC2086
"$JAVA" $flags -cp "$jar" dev.sluice.transport.cli.SluiceMain simulate quality --workers 2 --window 20s --step 5s \
    > "$tmp/quality.md" 2> "$tmp/quality.log" || true
shares='^\| (premium|standard|batch) \| [0-9]+ \| [0-9.]+% \| [0-9.]+%'
check "Scheduling quality (DRR shares)" "[ \$(grep -cE '$shares' '$tmp/quality.md') = 3 ]"
check "Scheduling quality (ramp, 12 rows)" "[ \$(grep -cE '^\| [0-9]+% \| (yes|no) \|' '$tmp/quality.md') = 12 ]"
check "Scheduling quality (balanced)" "grep -q 'ended exactly once .*: yes' '$tmp/quality.md'"
# shellcheck disable=SC2086
"$JAVA" $flags -cp "$jar" dev.sluice.transport.cli.SluiceMain simulate fairness --workers 2 --window 8s \
    > "$tmp/fairness.md" 2> "$tmp/fairness.log" || true
check "Tenant fairness (27 rows)" "[ \$(grep -cE '^\| (backlogged|light-load|no-heavy) \|' '$tmp/fairness.md') = 27 ]"
# The fixed-rate HTTP generator against a mock engine on loopback: one line of six figures, no errors.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
# shellcheck disable=SC2086
"$JAVA" $flags -cp "$jar" dev.sluice.transport.cli.SluiceMain mock-engine --port "$port" --speedup-ratio 1000 \
    --model-name sluice-sim > "$tmp/engine.log" 2>&1 &
engine=$!
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
# shellcheck disable=SC2086
"$JAVA" $flags -cp "$jar" dev.sluice.perf.http.FixedRateLoad --url "http://127.0.0.1:$port" --rate 200 --seconds 1 \
    --warmup 0 --stream true --connections 4 > "$tmp/fixed.txt" 2> "$tmp/fixed.log" || true
kill "$engine" 2>/dev/null || true
wait "$engine" 2>/dev/null || true
check "FixedRateLoad (HTTP, streaming, 0 errors)" "grep -qE '^[0-9]+ [0-9]+ [0-9]+ [0-9]+ [0-9]+ 0$' '$tmp/fixed.txt'"
[ "$failed" = 0 ] && echo "smoke: all passed" || { echo "smoke: failures" >&2; exit 1; }
