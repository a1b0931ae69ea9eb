#!/usr/bin/env bash
# Several `sluice serve` replicas in front of the same two mock engines, sharing their bookings through one
# nats-server (README "Running several frontends"): admission throughput of 1, 2 and 3 replicas (wrk, closed loop,
# the same total connections split evenly over the replicas, one wrk per replica at once), and the replica-sync lag
# (a booking on one replica to its application on another's scheduler thread) from the replicas' /metrics after the
# 3-replica run. Everything runs on this machine's cores, so more replicas share the same CPUs: the ratios say what
# sync costs here, not how a fleet on separate machines scales. Prints Markdown on stdout; stops what it started.
# Usage: perf/replicas.sh OUT_DIR [SECONDS, default 8] [CONNECTIONS, default 24]; run it under `flock /tmp/jmh.lock`.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
sluice_need_out_dir "perf/replicas.sh OUT_DIR [SECONDS, default 8] [CONNECTIONS, default 24]" "$@"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
cd "$SLUICE_ROOT"
secs="${2:-8}"
conns="${3:-24}"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

for tool in wrk nats-server; do
    if ! command -v "$tool" > /dev/null && [ ! -x "/usr/sbin/$tool" ]; then
        echo "Skipped: \`$tool\` is missing (\`apt-get install -y wrk nats-server\`)."
        exit 0
    fi
done
nats_bin="$(command -v nats-server || echo /usr/sbin/nats-server)"
# Build once (if stale) before the processes below start scripts/sluice at once.
scripts/sluice --help > /dev/null

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
await_port() {
    for _ in $(seq 1 600); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "port $1 did not open" >&2
    return 1
}

nats_port=$(free_port)
"$nats_bin" -a 127.0.0.1 -p "$nats_port" > "$out/nats.log" 2>&1 & pids+=($!)
await_port "$nats_port"
engine_args=()
for i in 0 1; do
    http=$(free_port); kv=$(free_port); replay=$(free_port)
    scripts/sluice mock-engine --port "$http" --model-name fleet --block-size 16 --speedup-ratio 1000 \
        --kv-events "tcp://127.0.0.1:$kv" --kv-events-replay "tcp://127.0.0.1:$replay" \
        > "$out/engine-$i.log" 2>&1 & pids+=($!)
    await_port "$http"
    engine_args+=(--engine-url "http://127.0.0.1:$http"
        --engine-kv-events "tcp://127.0.0.1:$kv,replay=tcp://127.0.0.1:$replay")
done
ports=()
for id in a b c; do
    port=$(free_port)
    scripts/sluice serve --http-host 127.0.0.1 --http-port "$port" --no-journal --model-name fleet --block-size 16 \
        "${engine_args[@]}" --nats-url "nats://127.0.0.1:$nats_port" --replica-id "$id" \
        > "$out/serve-$id.log" 2>&1 & pids+=($!)
    ports+=("$port")
done
for port in "${ports[@]}"; do await_port "$port"; done

cat > "$out/post.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
counter = 0
request = function()
    counter = counter + 1
    return wrk.format(nil, "/v1/completions", nil, '{"model":"fleet","max_tokens":4,"prompt":"prefix shared by'
        .. ' every request of this run, then request ' .. counter .. ' of a wrk thread"}')
end
LUA

# Requests per second summed over one wrk per replica (the first N), run at once; prints "rps non2xx".
run() {
    local n="$1" per=$(( conns / $1 )) i loads=()
    for ((i = 0; i < n; i++)); do
        wrk -t1 -c"$per" -d"${secs}s" -s "$out/post.lua" "http://127.0.0.1:${ports[$i]}" \
            > "$out/wrk-$n-$i.txt" 2>&1 & loads+=($!)
    done
    for p in "${loads[@]}"; do wait "$p" || true; done
    cat "$out"/wrk-"$n"-*.txt | awk '$1 == "Requests/sec:" { rps += $2 } /Non-2xx/ { bad += $NF }
        END { printf "%.0f %d\n", rps, bad + 0 }'
}

# Warm-up, one light connection at a time (its bookings count in the light-load lag below).
for port in "${ports[@]}"; do
    wrk -t1 -c1 -d2s -s "$out/post.lua" "http://127.0.0.1:$port" > /dev/null 2>&1 || true
done
# One replica's lag table rows: "| id | LOAD | count | p50 | p99 |" for b and c (or every replica).
lag() {
    local i
    for i in 0 1 2; do
        curl -s "http://127.0.0.1:${ports[$i]}/metrics" > "$out/metrics-$i.txt"
        awk -v id="$(printf '%s' abc | cut -c$((i + 1)))" -v load="$1" '
            /^sluice_replica_sync_lag_seconds\{.*quantile="0.5"/ { p50 = $NF * 1000 }
            /^sluice_replica_sync_lag_seconds\{.*quantile="0.99"/ { p99 = $NF * 1000 }
            /^sluice_replica_sync_lag_seconds_count/ { n = $NF }
            END { if (n > 0) printf "| %s | %s | %d | %.3f | %.3f |\n", id, load, n, p50, p99 }' "$out/metrics-$i.txt"
    done
}
wrk -t1 -c1 -d"${secs}s" -s "$out/post.lua" "http://127.0.0.1:${ports[0]}" > "$out/wrk-light.txt" 2>&1 || true
lag "1 connection on a" > "$out/lag-light.md"
echo "### Several frontends"
echo
echo "Two \`mock-engine --speedup-ratio 1000\` with KV events, three \`serve --nats-url\` replicas (all started; the"
echo "first N take the load), $conns connections in all split evenly, one \`wrk -t1\` per replica at once, ${secs} s;"
echo "$(nproc) cores shared by everything."
echo
echo "| replicas | req/s | vs 1 | non-2xx |"
echo "| ---: | ---: | ---: | ---: |"
base=""
for n in 1 2 3; do
    read -r rps bad < <(run "$n")
    [ -z "$base" ] && base="$rps"
    echo "| $n | $rps | $(awk -v a="$rps" -v b="$base" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') | $bad |"
done
echo
echo "Replica-sync lag (booking sent on one replica to applied on another's scheduler thread), per replica:"
echo "HdrHistogram quantiles from \`sluice_replica_sync_lag_seconds\`, first after ${secs} s of one connection on"
echo "replica a alone (light load), then over every run."
echo
echo "| replica | load | bookings applied | p50 ms | p99 ms |"
echo "| --- | --- | ---: | ---: | ---: |"
cat "$out/lag-light.md"
lag "all runs"
