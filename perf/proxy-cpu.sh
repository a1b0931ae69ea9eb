#!/usr/bin/env bash
# CPU per forwarded request, called by perf/http-overhead.sh (and runnable alone): `sluice serve --engine-url` (with
# the journal and admission, as deployed; and with --no-journal) and HAProxy in front of the same
# `sluice mock-engine --speedup-ratio 1000`; `wrk -t1 -c16` after a warm-up, non-streaming and streaming chat, 16
# output tokens. CPU is utime + stime from /proc/PID/stat of each proxy process over a measured run, divided by
# the requests wrk completed; the table gives the median of ROUNDS measured runs, the paths taking turns. Also the
# p50 of one connection and the throughput at 32. Prints Markdown on stdout; the processes it starts are stopped on
# exit. SERVE_FLAGS (split on spaces) go to both `sluice serve` runs, e.g.
# SERVE_FLAGS='--scheduler-idle wait'.
# Usage: perf/proxy-cpu.sh OUT_DIR [SECONDS, default 10] [WARMUP_SECONDS, default 15] [ROUNDS, default 3]
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
sluice_need_out_dir "perf/proxy-cpu.sh OUT_DIR [SECONDS, default 10] [WARMUP_SECONDS, default 15] [ROUNDS, default 3]" \
    "$@"
mkdir -p "$1"
out="$(cd "$1" && pwd)"
# The report names the run's files relative to the checkout when they are inside it.
shown="${out#"$SLUICE_ROOT"/}"
cd "$SLUICE_ROOT"
secs="${2:-10}"
warmup="${3:-15}"
rounds="${4:-3}"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; }
trap cleanup EXIT
if ! command -v wrk > /dev/null || ! command -v haproxy > /dev/null; then
    echo "Skipped: \`wrk\` or \`haproxy\` is missing (as root: \`apt-get install -y wrk haproxy\`)."
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
# utime + stime of process $1 in clock ticks, then stime alone: "cpu sys".
cpu_ticks() { awk '{ print $14 + $15, $15 }' "/proc/$1/stat"; }
# read and write system calls of process $1 so far: "reads writes" (0 0 where /proc/PID/io cannot be read).
syscalls() { awk '$1 == "syscr:" { r = $2 } $1 == "syscw:" { w = $2 } END { print r + 0, w + 0 }' "/proc/$1/io" \
    2> /dev/null || echo "0 0"; }
# Context switches of every thread of process $1 so far: "voluntary involuntary" (a thread that ended takes its
# counts with it; the proxies' threads live as long as they do).
switches() { cat /proc/"$1"/task/*/status 2> /dev/null | awk '$1 == "voluntary_ctxt_switches:" { v += $2 }
    $1 == "nonvoluntary_ctxt_switches:" { n += $2 } END { print v + 0, n + 0 }'; }
read -r -a serve_flags <<< "${SERVE_FLAGS:-}"
tick_us=$(awk -v hz="$(getconf CLK_TCK)" 'BEGIN { print 1e6 / hz }')

# Builds the jar first when it is missing or stale (the floor rows run from it directly).
scripts/sluice --help > /dev/null
engine_port=$(free_port)
scripts/sluice mock-engine --port "$engine_port" --speedup-ratio 1000 --model-name sluice-sim \
    > "$out/engine.log" 2>&1 & pids+=($!)
journal_port=$(free_port)
rm -rf "$out/journal"
SLUICE_JAVA_OPTS="${PROXY_CPU_JFR:+-XX:StartFlightRecording=filename=$out/serve-journal.jfr,settings=profile}" \
    scripts/sluice serve --http-host 127.0.0.1 --http-port "$journal_port" --journal-dir "$out/journal" \
    ${serve_flags[@]+"${serve_flags[@]}"} --engine-url "http://127.0.0.1:$engine_port" \
    > "$out/serve-journal.log" 2>&1 & pids+=($!)
journal_pid=$!
plain_port=$(free_port)
scripts/sluice serve --http-host 127.0.0.1 --http-port "$plain_port" --no-journal \
    ${serve_flags[@]+"${serve_flags[@]}"} --engine-url "http://127.0.0.1:$engine_port" \
    > "$out/serve-plain.log" 2>&1 & pids+=($!)
plain_pid=$!
# serve on Helidon's virtual threads (--http-io threads), the journal on.
threads_port=$(free_port)
rm -rf "$out/threads-journal"
scripts/sluice serve --http-host 127.0.0.1 --http-port "$threads_port" --journal-dir "$out/threads-journal" \
    --http-io threads ${serve_flags[@]+"${serve_flags[@]}"} --engine-url "http://127.0.0.1:$engine_port" \
    > "$out/serve-threads.log" 2>&1 & pids+=($!)
threads_pid=$!
haproxy_port=$(free_port)
cat > "$out/haproxy.cfg" <<CFG
global
    maxconn 4096
defaults
    mode http
    http-reuse always
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout queue 30s
frontend front
    bind 127.0.0.1:$haproxy_port
    default_backend engine
backend engine
    server engine 127.0.0.1:$engine_port maxconn 64
CFG
# The floor: Helidon's server alone (a fixed answer), a bare Helidon proxy (the body forwarded as it is through
# a pooled WebClient, the answer relayed) and a bare Netty proxy (the same on event loops, no virtual threads); all
# run with serve's JVM flags from the jar scripts/sluice built.
mapfile -t jvm_flags < <(sluice_jvm_flags)
perf_cp="$SLUICE_ROOT/perf/target/sluice-perf-0.1.0-SNAPSHOT.jar:$SLUICE_ROOT/perf/target/lib/*"
bare_server_port=$(free_port)
"$JAVA" "${jvm_flags[@]}" -cp "$perf_cp" dev.sluice.perf.http.BareServer "$bare_server_port" \
    > "$out/bare-server.log" 2>&1 & pids+=($!)
bare_server_pid=$!
bare_proxy_port=$(free_port)
"$JAVA" "${jvm_flags[@]}" -cp "$perf_cp" dev.sluice.perf.http.BareProxy "$bare_proxy_port" \
    "http://127.0.0.1:$engine_port" > "$out/bare-proxy.log" 2>&1 & pids+=($!)
bare_proxy_pid=$!
netty_proxy_port=$(free_port)
"$JAVA" "${jvm_flags[@]}" -cp "$perf_cp" dev.sluice.perf.http.NettyProxy "$netty_proxy_port" \
    "http://127.0.0.1:$engine_port" > "$out/netty-proxy.log" 2>&1 & pids+=($!)
netty_proxy_pid=$!
haproxy -f "$out/haproxy.cfg" -db > "$out/haproxy.log" 2>&1 & pids+=($!)
haproxy_pid=$!
for port in "$engine_port" "$journal_port" "$plain_port" "$haproxy_port" "$bare_server_port" "$bare_proxy_port" \
    "$netty_proxy_port" "$threads_port"; do
    await_port "$port"
done

for stream in false true; do
    cat > "$out/post-$stream.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"model":"sluice-sim","max_tokens":16,"stream":$stream,'
    .. '"messages":[{"role":"user","content":"hello there"}]}'
LUA
done

# Prints "requests p50_us req_per_s non2xx" for one wrk run: $1 url, $2 connections, $3 stream, $4 seconds.
run_wrk() {
    local log="$out/wrk-$(echo "$1" | tr -c 'a-z0-9' '_')-c$2-$3.txt"
    wrk -t1 -c"$2" -d"$4s" --latency -s "$out/post-$3.lua" "$1/v1/chat/completions" > "$log" 2>&1
    awk '
        function us(v) {
            if (v ~ /us$/) return v + 0
            if (v ~ /ms$/) return v * 1000
            if (v ~ /s$/) return v * 1e6
            return v
        }
        $1 == "50%" { p50 = us($2) } $1 == "Requests/sec:" { rps = $2 }
        / requests in / { n = $1 } /Non-2xx/ { bad = $NF }
        END { printf "%d %.0f %.0f %d\n", n, p50, rps, bad + 0 }' "$log"
}

# $1 / $2 with two decimals (0 when $2 is 0).
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

echo "### CPU per forwarded request"
echo
echo "\`scripts/sluice serve --engine-url${SERVE_FLAGS:+ $SERVE_FLAGS}\` (journal on in \`$shown/journal\`,"
echo "admission on; and \`--no-journal\`) and"
echo "HAProxy (\`http-reuse always\`, \`server ... maxconn 64\`; config \`$shown/haproxy.cfg\`) in front of the same"
echo "\`scripts/sluice mock-engine --speedup-ratio 1000\`; chat completion, 16 output tokens. Each path is warmed"
echo "${warmup} s with \`wrk -t1 -c16\`, then measured ${secs} s with \`wrk -t1 -c16\` in each of ${rounds} rounds,"
echo "the paths taking turns: CPU is utime + stime of the proxy process (\`/proc/PID/stat\`) over a run divided by"
echo "the requests completed. The c=16 columns are the medians of the rounds; \"rounds\" gives the range of their"
echo "CPU, and \"in kernel\" the median of its system part (stime) per request. Then p50 with one connection and"
echo "req/s with 32 (${secs} s each, once). All on the same $(nproc) cores as"
echo "the engine and wrk; \"x\" columns are ratios to HAProxy in the same mode, \"+\" the added p50 over"
echo "HAProxy's; reads and writes are the proxy's read and write system calls per request over a c=16 run"
echo "(\`/proc/PID/io\` syscr, syscw; HAProxy's recv and send are not counted there); sleeps and preempted are its"
echo "threads' voluntary and involuntary context switches per request over a c=16 run (\`/proc/PID/task/*/status\`):"
echo "a thread that blocks with nothing to do, and one the kernel takes off its core. Non-2xx counts the answers"
echo "other than 200 over all runs. The floor rows: \`dev.sluice.perf.http.BareServer\` (Helidon's HTTP/1.1 server"
echo "answering a fixed body, no upstream) and \`BareProxy\` (the client's body forwarded as it is through a pooled"
echo "Helidon WebClient, the answer relayed; no admission, journal or JSON parse), with serve's JVM flags; and"
echo "\`NettyProxy\`, the same on Netty's HTTP codecs on NIO event loops, one per core, each client connection paired"
echo "with its own upstream connection: what an event-loop server and client cost on the JVM without virtual threads."
echo "\`serve\` answers on Netty's event loops (\`--http-io loops\`, the default), each request on its connection's"
echo "loop with the engine's connection of the same loop; \`--http-io threads\` is Helidon's server, a virtual thread"
echo "per request (journal on in \`$shown/threads-journal\`)."
echo
echo "| path | stream | CPU/req µs | rounds | in kernel µs | x | req/s c=16 | x | req/s c=32 | x | p50 µs c=1 | + |" \
    "p50 µs c=16 | reads | writes | sleeps | preempted | non-2xx |"
echo "| --- | --- |$(printf ' ---: |%.0s' $(seq 1 16))"
rows=("HAProxy|$haproxy_port|$haproxy_pid" \
    "bare Helidon server (no upstream)|$bare_server_port|$bare_server_pid" \
    "bare Helidon proxy|$bare_proxy_port|$bare_proxy_pid" "bare Netty proxy|$netty_proxy_port|$netty_proxy_pid" \
    "sluice serve --no-journal|$plain_port|$plain_pid" "sluice serve, journal on|$journal_port|$journal_pid" \
    "sluice serve --http-io threads, journal on|$threads_port|$threads_pid")
# One c=16 run of path $1 (port $2, pid $3, stream $4), appended to its rounds file as
# "cpu_us reqs_per_s p50_us reads writes sleeps preempted non2xx kernel_us".
measure() {
    local url="http://127.0.0.1:$2" before after s0 s1 r0 w0 v0 i0 r1 w1 v1 i1 n p50 rps bad
    read -r before s0 < <(cpu_ticks "$3")
    read -r r0 w0 < <(syscalls "$3")
    read -r v0 i0 < <(switches "$3")
    read -r n p50 rps bad < <(run_wrk "$url" 16 "$4" "$secs")
    read -r after s1 < <(cpu_ticks "$3")
    read -r r1 w1 < <(syscalls "$3")
    read -r v1 i1 < <(switches "$3")
    awk -v t=$((after - before)) -v us="$tick_us" -v n="$n" -v rps="$rps" -v p50="$p50" -v r=$((r1 - r0)) \
        -v w=$((w1 - w0)) -v v=$((v1 - v0)) -v i=$((i1 - i0)) -v bad="$bad" -v s=$((s1 - s0)) 'BEGIN {
            if (n == 0) n = -1
            printf "%.1f %s %s %.2f %.2f %.2f %.2f %d %.1f\n", t * us / n, rps, p50, r / n, w / n, v / n, i / n, bad,
                s * us / n }' \
        >> "$out/rounds-$1-$4.txt"
}
# The median of column $2 of file $1.
median() { sort -n -k "$2,$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }

for stream in false true; do
    for i in "${!rows[@]}"; do
        IFS='|' read -r name port pid <<< "${rows[$i]}"
        run_wrk "http://127.0.0.1:$port" 16 "$stream" "$warmup" > /dev/null
        rm -f "$out/rounds-$i-$stream.txt"
    done
    # Rounds interleave the paths, so that a slow spell of the machine falls on all of them alike.
    for _ in $(seq 1 "$rounds"); do
        for i in "${!rows[@]}"; do
            IFS='|' read -r name port pid <<< "${rows[$i]}"
                measure "$i" "$port" "$pid" "$stream"
        done
    done
    for i in "${!rows[@]}"; do
        IFS='|' read -r name port pid <<< "${rows[$i]}"
        url="http://127.0.0.1:$port"
        f="$out/rounds-$i-$stream.txt"
        cpu=$(median "$f" 1); rps16=$(median "$f" 2); p50=$(median "$f" 3); reads=$(median "$f" 4)
        writes=$(median "$f" 5); sleeps=$(median "$f" 6); preempted=$(median "$f" 7); kernel=$(median "$f" 9)
        bad=$(awk '{ s += $8 } END { print s + 0 }' "$f")
        spread=$(sort -n "$f" | awk 'NR == 1 { lo = $1 } { hi = $1 } END { printf "%s-%s", lo, hi }')
        read -r _ p1 _ bad1 < <(run_wrk "$url" 1 "$stream" "$secs")
        read -r _ _ rps32 bad32 < <(run_wrk "$url" 32 "$stream" "$secs")
        if [ "$name" = HAProxy ]; then
            hcpu="$cpu"; hp1="$p1"; h16="$rps16"; h32="$rps32"
            # HAProxy calls recv and send, which syscr and syscw do not count.
            reads="—"; writes="—"
        fi
        echo "| $name | $stream | $cpu | $spread | $kernel | $(ratio "$cpu" "$hcpu") | $rps16 | $(ratio "$rps16" "$h16") |" \
            "$rps32 | $(ratio "$rps32" "$h32") | $p1 | $((p1 - hp1)) | $p50 | $reads | $writes | $sleeps |" \
            "$preempted | $((bad + bad1 + bad32)) |"
    done
done
