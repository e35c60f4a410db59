#!/usr/bin/env bash
# End-to-end figures for the foundation: cold start of `bin/meritmark serve` to a ready
# /readyz on SQLite, and GET / under wrk -t2 -c64 -d10s. Usage: bench/http.sh [path...]
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[ -x bin/meritmark ] || make build
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
export MERITMARK_DATA_DIR=$data MERITMARK_ADDR=127.0.0.1:$port MERITMARK_LOG_LEVEL=warn
./bin/meritmark seed >/dev/null
start=$(date +%s%N)
./bin/meritmark serve 2>/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
until curl -sf "http://127.0.0.1:$port/readyz" >/dev/null; do sleep 0.005; done
echo "cold start to ready /readyz: $(( ($(date +%s%N) - start) / 1000000 )) ms (budget < 1000 ms)"
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(/)
for p in "${paths[@]}"; do
  echo "== wrk -t2 -c64 -d10s $p"
  wrk -t2 -c64 -d10s --latency "http://127.0.0.1:$port$p" | grep -E "Requests/sec|Latency|50%|99%|Non-2xx|Socket errors" || true
done
