#!/usr/bin/env bash
# A/B of two builds on one path: two seeded servers side by side (BIN_A, BIN_B), wrk -t2
# -c32 rounds ALTERNATED between them (the machine's load drifts; compare within a round),
# each round's req/s and the server's CPU per request (user + system from /proc: on a
# shared machine it holds where req/s does not).
# Usage: bench/ab.sh BIN_A BIN_B [path (/badges)] [rounds (4)]; DURATION (4s) per round.
# A before figure: git worktree add /tmp/before <rev> && (cd /tmp/before && node
# esbuild.config.mjs && go build -o /tmp/mm-before .), then bench/ab.sh /tmp/mm-before bin/meritmark.
set -euo pipefail
A=$1 B=$2 P=${3:-/badges} R=${4:-4} D=${DURATION:-4s}
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
pids=() dirs=()
trap 'kill "${pids[@]}" 2>/dev/null || true; rm -rf "${dirs[@]}"' EXIT
start() {
  local d; d=$(mktemp -d); dirs+=("$d")
  MERITMARK_DATA_DIR=$d MERITMARK_ADDR=127.0.0.1:$2 MERITMARK_LOG_LEVEL=warn "$1" seed >/dev/null
  MERITMARK_DATA_DIR=$d MERITMARK_ADDR=127.0.0.1:$2 MERITMARK_LOG_LEVEL=warn "$1" serve >/dev/null 2>&1 &
  pids+=($!)
  until curl -sf "http://127.0.0.1:$2/readyz" >/dev/null; do sleep 0.01; done
}
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; } # clock ticks
base=$((20000 + RANDOM % 20000))
start "$A" "$base"
start "$B" $((base + 1))
tick=$(getconf CLK_TCK)
round() { # port pid -> "req/s µs-per-request"
  local c0 out n
  c0=$(cpu "$2")
  out=$(wrk -t2 -c32 -d"$D" -H 'Accept-Encoding: gzip' "http://127.0.0.1:$1$P")
  n=$(awk '/requests in/{print $1}' <<<"$out")
  echo "$(awk '/Requests\/sec/{print $2}' <<<"$out") $(awk -v c="$(( $(cpu "$2") - c0 ))" -v n="$n" -v t="$tick" 'BEGIN{printf "%.1f", c/t*1e6/n}')"
}
round "$base" "${pids[0]}" >/dev/null # warm both
round $((base + 1)) "${pids[1]}" >/dev/null
printf '%-6s %10s %8s %10s %8s %7s %9s\n' round A-req/s A-us/req B-req/s B-us/req B/A CPU-A/B
for r in $(seq "$R"); do
  read -r a ac < <(round "$base" "${pids[0]}")
  read -r b bc < <(round $((base + 1)) "${pids[1]}")
  awk -v r="$r" -v a="$a" -v ac="$ac" -v b="$b" -v bc="$bc" 'BEGIN{printf "%-6s %10.0f %8.1f %10.0f %8.1f %6.2fx %8.2fx\n", r, a, ac, b, bc, b/a, ac/bc}'
done
