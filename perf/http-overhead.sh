#!/usr/bin/env bash
# HTTP overhead over loopback, called by scripts/perf: the same chat completion sent (a) straight to
# `sluice mock-engine`, (b) through `sluice serve --engine-url` in front of it, (c) through HAProxy with `maxconn`
# queueing in front of it; non-streaming and streaming. Two tables: wrk (closed-loop: one connection for the latency
# of a lone request, 32 for max throughput), then the open-loop FixedRateLoad at fixed rates (latency from each
# request's due time), where `serve` on its embedded simulated fleet is compared too; then the CPU per forwarded
# request beside HAProxy (perf/proxy-cpu.sh; PROXY_CPU_SECONDS, PROXY_CPU_WARMUP, PROXY_CPU_ROUNDS). Prints Markdown
# on stdout; the processes it starts are stopped on exit.
# Usage: perf/http-overhead.sh OUT_DIR [SECONDS] [RATES, default 500,2000]; needs perf/target/benchmarks.jar
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
# OUT_DIR is the caller's (relative to where this is called from); the rest runs in the checkout.
sluice_need_out_dir "perf/http-overhead.sh OUT_DIR [SECONDS] [RATES, default 500,2000]" "$@"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
# The report names the run's files relative to the checkout when they are inside it.
shown="${out#"$SLUICE_ROOT"/}"
cd "$SLUICE_ROOT"
secs="${2:-8}"
rates="${3:-500,2000}"
mkdir -p "$out"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT

if ! command -v wrk > /dev/null || ! command -v haproxy > /dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
        apt-get install -y wrk haproxy > "$out/apt.log" 2>&1 || true
    fi
fi
if ! command -v wrk > /dev/null; then
    echo "Skipped: \`wrk\` is missing and could not be installed (as root: \`apt-get install -y wrk haproxy\`)."
    exit 0
fi

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
await_port() {
    for _ in $(seq 1 300); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.1
    done
    echo "port $1 did not open" >&2
    return 1
}

engine_port=$(free_port)
scripts/sluice mock-engine --port "$engine_port" --speedup-ratio 1000 --model-name sluice-sim \
    > "$out/engine.log" 2>&1 & pids+=($!)
serve_port=$(free_port)
scripts/sluice serve --http-host 127.0.0.1 --http-port "$serve_port" --no-journal \
    --engine-url "http://127.0.0.1:$engine_port" > "$out/serve.log" 2>&1 & pids+=($!)
embedded_port=$(free_port)
scripts/sluice serve --http-host 127.0.0.1 --http-port "$embedded_port" --no-journal --speedup-ratio 1000 \
    --model-name sluice-sim > "$out/serve-embedded.log" 2>&1 & pids+=($!)
await_port "$engine_port"
await_port "$serve_port"
await_port "$embedded_port"
haproxy_port=""
if command -v haproxy > /dev/null; then
    haproxy_port=$(free_port)
    cat > "$out/haproxy.cfg" <<CFG
global
    maxconn 4096
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout queue 30s
frontend front
    bind 127.0.0.1:$haproxy_port
    default_backend engine
backend engine
    server engine 127.0.0.1:$engine_port maxconn 8
CFG
    haproxy -f "$out/haproxy.cfg" -db > "$out/haproxy.log" 2>&1 & pids+=($!)
    await_port "$haproxy_port"
fi

for stream in false true; do
    cat > "$out/post-$stream.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"sluice-sim","max_tokens":16,"stream":$stream,'
    .. '"messages":[{"role":"user","content":"hello there"}]}'
LUA
done

# Prints "p50_us p99_us req_per_s non2xx" for one wrk run.
measure() {
    local url="$1" conns="$2" stream="$3" log
    log="$out/wrk-$(echo "$url" | tr -c 'a-z0-9' '_')-c$conns-$stream.txt"
    wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$out/post-$stream.lua" "$url/v1/chat/completions" > "$log" 2>&1
    awk '
        function us(v) {
            if (v ~ /us$/) return v + 0
            if (v ~ /ms$/) return v * 1000
            if (v ~ /s$/) return v * 1e6
            return v
        }
        $1 == "50%" { p50 = us($2) } $1 == "99%" { p99 = us($2) } $1 == "Requests/sec:" { rps = $2 }
        /Non-2xx/ { bad = $NF }
        END { printf "%.0f %.0f %.0f %d\n", p50, p99, rps, bad + 0 }' "$log"
}

echo "### Closed loop (wrk)"
echo
echo "Mock engine: \`scripts/sluice mock-engine --speedup-ratio 1000\` (16 output tokens); sluice:"
echo "\`scripts/sluice serve --no-journal --engine-url\` in front of it; HAProxy: \`server ... maxconn 8\` in front of"
echo "it (config: \`$shown/haproxy.cfg\`). Load: \`wrk -t1 -c1\` (latency) and \`wrk -t1 -c32\` (throughput), ${secs} s"
echo "each, all on the same $(nproc) cores."
echo "Each path is warmed first (2 s, 8 connections, both modes; not recorded)."
echo "wrk is closed-loop, so these are not fixed-rate figures. Latency µs; \"+\" columns are added over direct."
echo
echo "| path | stream | p50 (c=1) | p99 (c=1) | + p50 | + p99 | req/s (c=32) | vs direct | non-2xx |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
warm() { wrk -t1 -c8 -d2s -s "$out/post-$1.lua" "$2/v1/chat/completions" > /dev/null 2>&1 || true; }
for port in "$engine_port" "$serve_port" "$embedded_port" $haproxy_port; do
    warm false "http://127.0.0.1:$port"
    warm true "http://127.0.0.1:$port"
done
for stream in false true; do
    read -r d50 d99 _ _ < <(measure "http://127.0.0.1:$engine_port" 1 "$stream")
    read -r _ _ drps dbad < <(measure "http://127.0.0.1:$engine_port" 32 "$stream")
    echo "| (a) direct to mock-engine | $stream | $d50 | $d99 | — | — | $drps | 1.00 | $dbad |"
    for row in "b) through sluice serve|$serve_port" "c) through HAProxy maxconn 8|$haproxy_port"; do
        name="${row%%|*}"
        port="${row##*|}"
        if [ -z "$port" ]; then
            echo "| ($name | $stream | skipped: haproxy missing (\`apt-get install -y haproxy\`) | | | | | | |"
            continue
        fi
        read -r l50 l99 _ _ < <(measure "http://127.0.0.1:$port" 1 "$stream")
        read -r _ _ rps bad < <(measure "http://127.0.0.1:$port" 32 "$stream")
        echo "| ($name | $stream | $l50 | $l99 | $((l50 - d50)) | $((l99 - d99)) | $rps |" \
            "$(awk -v a="$rps" -v b="$drps" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }') | $((bad)) |"
    done
done

flags="$(sluice_jvm_flags | tr '\n' ' ')"
# Prints "p50_us p99_us p999_us max_us achieved_per_s errors" for one fixed-rate run.
fixed() {
    local port="$1" rate="$2" stream="$3"
    # shellcheck disable=SC2086
    "$JAVA" $flags -cp perf/target/benchmarks.jar dev.sluice.perf.http.FixedRateLoad --url "http://127.0.0.1:$port" \
        --rate "$rate" --seconds "$secs" --warmup 2 --stream "$stream" --connections 64 \
        --hgrm "$out/fixed-$port-$rate-$stream.hgrm" 2> "$out/fixed-$port-$rate-$stream.log"
}
echo
echo "### At fixed rates (open loop)"
echo
echo "\`java -cp perf/target/benchmarks.jar dev.sluice.perf.http.FixedRateLoad --rate R --stream S --connections 64"
echo "--seconds $secs --warmup 2\`: request *i* is due at *start + i/R* and its latency runs from that due time, so a"
echo "stall counts against every request due during it (coordinated omission corrected; 64 keep-alive connections)."
echo "Same engine settings everywhere; \"embedded\" is \`serve\` on its own simulated fleet with the same"
echo "\`--speedup-ratio 1000\`, so against (a) it shows the frontend's own cost without the second HTTP hop. The"
echo "architecture target is the embedded row at 2,000/s streaming: ≤ 100 µs added p50, ≤ 1 ms added p99."
echo "Percentile files: \`$shown/fixed-*.hgrm\`. Latency µs."
echo
echo "| path | rate/s | stream | p50 | p99 | p99.9 | max | + p50 | + p99 | achieved/s | errors |"
echo "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
IFS=, read -r -a rate_list <<< "$rates"
for rate in "${rate_list[@]}"; do
    for stream in false true; do
        read -r d50 d99 d999 dmax dach derr < <(fixed "$engine_port" "$rate" "$stream")
        echo "| (a) direct to mock-engine | $rate | $stream | $d50 | $d99 | $d999 | $dmax | — | — | $dach | $derr |"
        for row in "b) serve --engine-url|$serve_port" "b') serve, embedded fleet|$embedded_port" \
            "c) HAProxy maxconn 8|$haproxy_port"; do
            name="${row%%|*}"
            port="${row##*|}"
            if [ -z "$port" ]; then
                echo "| ($name | $rate | $stream | skipped: haproxy missing | | | | | | | |"
                continue
            fi
            read -r l50 l99 l999 lmax lach lerr < <(fixed "$port" "$rate" "$stream")
            echo "| ($name | $rate | $stream | $l50 | $l99 | $l999 | $lmax | $((l50 - d50)) | $((l99 - d99)) |" \
                "$lach | $lerr |"
        done
    done
done

# The CPU-per-request table runs on its own processes (journal on and off, HAProxy with connection reuse): stop
# these first so that they do not share the cores with it.
cleanup
pids=()
echo
perf/proxy-cpu.sh "$out/cpu" "${PROXY_CPU_SECONDS:-10}" "${PROXY_CPU_WARMUP:-15}" "${PROXY_CPU_ROUNDS:-3}"
