#!/usr/bin/env bash
# The short summary scripts/perf prints on stdout from one run's artifacts. Usage: perf/summary.sh DIR REPORT
set -euo pipefail
dir="$1"
report="$2"
echo
echo "== sluice perf summary ($(nproc) cores; full tables in $report) =="
for f in "$dir"/harness-g*.md; do
    [ -f "$f" ] || continue
    g="${f##*harness-g}"
    echo
    echo "-- latency harness, ${g%.md} generator thread(s): offered/s, p50/p99/p99.9 µs --"
    grep -E '^\| (sluice|sluice-spin|baseline) \| [0-9]' "$f" | awk -F'|' '{
        printf "%-9s %10s  p50 %8s  p99 %10s  p99.9 %10s  achieved %10s\n", $2, $3, $5, $6, $7, $4 }'
    grep '^Max achieved' "$f" || true
done
if [ -f "$dir/parked.md" ]; then
    echo
    echo "-- parked-request scale: mode | waiting | heap/request | RSS/request | platform threads --"
    grep -E '^\| (sluice|baseline)' "$dir/parked.md" | awk -F'|' '{ printf "%s|%s|%s|%s|%s\n", $2, $3, $4, $5, $6 }'
fi
if [ -f "$dir/quality.md" ]; then
    echo
    echo "-- scheduling quality (simulated fleet, virtual clock) --"
    sed -nE 's/^\*\*Capacity\*\*: ([0-9.]+) requests\/s.*/capacity \1 requests\/s/p
        s/^Max relative error ([0-9.]+%).*/DRR share, max relative error \1/p' "$dir/quality.md"
    echo "load | policy queues | offered/s | goodput/s | good | completed | rejected | ttft p50 | ttft p99"
    grep -E '^\| (100|150|200)% \| (yes|no) \|' "$dir/quality.md" | cut -d'|' -f2-10 || true
fi
if [ -d "$dir/http" ]; then
    echo
    echo "-- HTTP overhead, wrk (closed loop): path | stream | p50 | p99 | +p50 | +p99 | req/s | vs direct --"
    grep -E '^\| \(' "$report" | awk -F'|' 'NF == 11 { printf "%s|%s|%s|%s|%s|%s|%s|%s\n", $2, $3, $4, $5, $6, $7, $8, $9 }'
    echo "-- HTTP overhead, fixed rate (open loop): path | rate/s | stream | p50 | p99 | +p50 | +p99 (µs) --"
    grep -E '^\| \(' "$report" | awk -F'|' 'NF == 13 { printf "%s|%s|%s|%s|%s|%s|%s\n", $2, $3, $4, $5, $6, $9, $10 }'
fi
