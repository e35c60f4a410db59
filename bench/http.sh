#!/usr/bin/env bash
# End-to-end figures: cold start of `bin/meritmark serve` to a ready /readyz on SQLite,
# then, for each path (default /, /badges, /hall-of-fame and /verify/ID), wrk -t2 -c32
# against the servers below run side by side and ALTERNATED in rounds (the machine's load
# drifts; ratios of the same round are what count):
#   node     a bare Node renderToString server of the same bundle (bench/node-server.mjs:
#            one worker per core, no database, no compression, no cache), for / and
#            /badges only (the pages it has props for; "-" elsewhere)
#   mm       Meritmark as configured by default (page cache on)
#   limit    the limit a cached page can approach: a bare fasthttp server (bench/bare)
#            sending the very bytes and headers Meritmark sent for the path
#   mm-off   Meritmark with the page cache off (OFF=0 leaves it out)
# Every request says Accept-Encoding: gzip (ENCODING sets another), as browsers do: mm
# and the limit send gzip, Node sends identity.
# Each run also reads the server's CPU time (user + system, from /proc, Node's workers
# included, wrk's own not) and prints CPU per request and the ratios by it: on a shared
# machine whose speed drifts from run to run, that figure holds where req/s does not.
# Then the resident memory (VmRSS) of mm and mm-off before and after RSS_REQUESTS (50000;
# 0 skips it) more requests on the first path.
# Before a path's rounds, each server serves it untimed for WARMUP (DURATION; 0 skips it):
# JITs warm in both engines, and an isolate needs ~3,000 renders to reach its speed, so
# without it the first round measured the warm-up (in a seven-round run, Node's first
# round on / made 635 req/s and its later ones 980-1,547).
# Each path ends with the median of its rounds' ratios (the machine drifts between rounds).
# /verify/ID is the verification page of a grant the script adds to both databases.
# Usage: bench/http.sh [path...]; ROUNDS (3), DURATION (5s) and WARMUP adjust the runs, BIN
# (bin/meritmark) picks the binary (e.g. one built from an older commit, for a before figure).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
BIN=${BIN:-bin/meritmark}
[ -x "$BIN" ] || make build
ROUNDS=${ROUNDS:-3}
RSS_REQUESTS=${RSS_REQUESTS:-50000}
DURATION=${DURATION:-5s}
WARMUP=${WARMUP:-$DURATION}
OFF=${OFF:-1}
ENCODING=${ENCODING:-gzip}
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=(/ /badges /hall-of-fame /verify/ID)
# the grant /verify/ID shows (its public verification id)
verify_id=benchgrantbenchgrantbenchgrant22
paths=("${paths[@]/#\/verify\/ID//verify/$verify_id}")
pids=()
dirs=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; for d in "${dirs[@]}"; do rm -rf "$d"; done; }
trap cleanup EXIT

# add_grant DB: a holder with a grant of the first badge, for /verify/ID and the Hall of Fame
add_grant() {
  command -v sqlite3 >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq sqlite3 >/dev/null; }
  sqlite3 "$1" "
INSERT INTO users (id, name, email, password_hash, role, position, created_at, updated_at, email_verified_at)
  VALUES ('benchholder', 'Bench Holder', 'holder@bench.example', '!', 'user', 'Engineer',
          strftime('%Y-%m-%d %H:%M:%f+00:00'), strftime('%Y-%m-%d %H:%M:%f+00:00'), strftime('%Y-%m-%d %H:%M:%f+00:00'));
INSERT INTO badge_grants (id, user_id, badge_id, verification_id, public_verification_id, granted_at)
  SELECT 'benchgrant', 'benchholder', id, 'MM-BNCH-BNCH-BNCH', '$verify_id', strftime('%Y-%m-%d %H:%M:%f+00:00')
  FROM badges ORDER BY name LIMIT 1;
INSERT INTO hall_of_fame (user_id, total_badges, last_earned_at) VALUES ('benchholder', 1, strftime('%Y-%m-%d %H:%M:%f+00:00'));"
}

# start_mm PORT [ENV...]: a seeded Meritmark on its own data dir
start_mm() {
  local port=$1; shift
  local data; data=$(mktemp -d); dirs+=("$data")
  env MERITMARK_DATA_DIR="$data" MERITMARK_ADDR=127.0.0.1:$port MERITMARK_LOG_LEVEL=warn "$@" "$BIN" seed >/dev/null
  add_grant "$data/meritmark.db"
  env MERITMARK_DATA_DIR="$data" MERITMARK_ADDR=127.0.0.1:$port MERITMARK_LOG_LEVEL=warn "$@" "$BIN" serve 2>/dev/null &
  pids+=($!)
  last_pid=$!
}
wait_ready() { until curl -sf "$1" >/dev/null; do sleep 0.005; done; }

base=$((20000 + RANDOM % 20000))
mm=$base; off=$((base + 1)); node_port=$((base + 2)); limit_port=$((base + 3))
start=$(date +%s%N)
start_mm $mm
mm_pid=$last_pid
wait_ready "http://127.0.0.1:$mm/readyz"
echo "cold start to ready /readyz: $(( ($(date +%s%N) - start) / 1000000 )) ms (budget < 1000 ms)"
if [ "$OFF" != 0 ]; then
  start_mm $off MERITMARK_PAGE_CACHE=false
  off_pid=$last_pid
  wait_ready "http://127.0.0.1:$off/readyz"
fi

# the Node server renders the same pages with the same props (taken from Meritmark once):
# the catalogue's badges as the page gets them, cards with the fields app/badge Card sends
# (the API's entries carry more: description, quiz, creator)
props=$(mktemp); dirs+=("$props")
curl -sf "http://127.0.0.1:$mm/backend/api/v1/badges/with-ownership" | node -e '
let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
  const badges = JSON.parse(s).badges.map(({ _id, name, category, type, level, price, icon, color, criteria }) =>
    ({ _id, name, category, type, level, price, icon, color, criteria, isOwned: false, applicationStatus: null, paymentProcessing: false }));
  const shell = (path) => ({ user: null, path, origin: "http://127.0.0.1:'"$mm"'", supportEmail: "support@meritmark.example" });
  const out = {
    "/": { page: "HomePage", title: "Meritmark", props: JSON.stringify({ shell: shell("/"), page: {} }) },
    "/badges": { page: "BadgesPage", title: "Discover Professional Badges | Meritmark", props: JSON.stringify({ shell: shell("/badges"),
      page: { badges, q: "", category: "", matchIds: badges.map((b) => b._id), pageSize: 24, showAll: false } }) },
  };
  process.stdout.write(JSON.stringify(out));
});' > "$props"
node bench/node-server.mjs $node_port "$props" &
pids+=($!)
node_pid=$!
wait_ready "http://127.0.0.1:$node_port/"

# the limit: the bytes Meritmark sends for each path (taken once, from its cache)
bare=$(mktemp); dirs+=("$bare")
go build -o "$bare" ./bench/bare
for p in "${paths[@]}"; do curl -sf -o /dev/null "http://127.0.0.1:$mm$p"; done
"$bare" -addr 127.0.0.1:$limit_port -from "http://127.0.0.1:$mm" "${paths[@]}" 2>/dev/null &
pids+=($!)
limit_pid=$!
wait_ready "http://127.0.0.1:$limit_port/"

# cpu_ticks PID: clock ticks of CPU (user + system) used by PID and its children so far
cpu_ticks() {
  local t=0 p
  for p in "$1" $(pgrep -P "$1"); do
    t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || echo 0)))
  done
  echo "$t"
}
hz=$(getconf CLK_TCK)
# run URL PID: one wrk run; prints "req/s ms-of-server-CPU-per-request"
run() {
  local c0 c1 out
  c0=$(cpu_ticks "$2")
  out=$(wrk -t2 -c32 -d"$DURATION" -H "Accept-Encoding: $ENCODING" "$1" 2>/dev/null)
  c1=$(cpu_ticks "$2")
  echo "$out" | awk -v c=$((c1 - c0)) -v hz="$hz" '/requests in/ {n = $1} /Requests\/sec/ {r = $2} END {printf "%s %.3f\n", r, c * 1000 / hz / n}'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2fx", a/b}'; }
# median VALUE...: the middle value (of "0.93x"-style ratios), the mean of the two middle ones for an even count
median() { printf '%s\n' "$@" | tr -d x | sort -g | awk '{v[NR] = $1} END {m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2fx", m}'; }
for p in "${paths[@]}"; do
  has_node=0
  case $p in / | /badges) has_node=1 ;; esac
  servers="limit mm"
  [ $has_node = 1 ] && servers="node $servers"
  [ "$OFF" != 0 ] && servers="$servers mm-off"
  echo "== $p: wrk -t2 -c32 -d$DURATION -H 'Accept-Encoding: $ENCODING', $ROUNDS rounds alternating $servers"
  if [ "$WARMUP" != 0 ]; then
    for port in $([ $has_node = 1 ] && echo $node_port) $limit_port $mm $([ "$OFF" != 0 ] && echo $off); do
      wrk -t2 -c32 -d"$WARMUP" -H "Accept-Encoding: $ENCODING" "http://127.0.0.1:$port$p" >/dev/null 2>&1
    done
    echo "(each server served $p untimed for $WARMUP first)"
  fi
  printf '%-6s %9s %9s %9s %9s %8s %8s %8s %30s\n' round node limit mm mm-off mm/limit mm/node off/node "server CPU ms/req limit mm off"
  mm_ratios=(); limit_ratios=(); off_ratios=(); cpu_ratios=()
  for r in $(seq 1 "$ROUNDS"); do
    n=- nc=- o=- oc=-
    [ $has_node = 1 ] && read -r n nc < <(run "http://127.0.0.1:$node_port$p" "$node_pid")
    read -r l lc < <(run "http://127.0.0.1:$limit_port$p" "$limit_pid")
    read -r m mc < <(run "http://127.0.0.1:$mm$p" "$mm_pid")
    [ "$OFF" != 0 ] && read -r o oc < <(run "http://127.0.0.1:$off$p" "$off_pid")
    mn=- on=-
    [ $has_node = 1 ] && { mn=$(ratio "$m" "$n"); mm_ratios+=("$mn"); }
    [ $has_node = 1 ] && [ "$OFF" != 0 ] && { on=$(ratio "$o" "$n"); off_ratios+=("$on"); }
    printf '%-6s %9s %9s %9s %9s %8s %8s %8s %10s %9s %9s\n' "$r" "$n" "$l" "$m" "$o" "$(ratio "$m" "$l")" "$mn" "$on" "$lc" "$mc" "$oc"
    limit_ratios+=("$(ratio "$m" "$l")"); cpu_ratios+=("$(ratio "$lc" "$mc")")
  done
  echo "(mm/limit is Meritmark's throughput over the bare server's sending the same bytes; by CPU is limit's CPU per request over mm's)"
  line="median of the rounds: mm/limit $(median "${limit_ratios[@]}"), by CPU $(median "${cpu_ratios[@]}")"
  [ ${#mm_ratios[@]} -gt 0 ] && line="$line, mm/node $(median "${mm_ratios[@]}")"
  [ ${#off_ratios[@]} -gt 0 ] && line="$line, off/node $(median "${off_ratios[@]}")"
  echo "$line"
  # sizes as a browser gets them
  printf 'bytes: %s identity, %s gzip, %s br (Meritmark); %s gzip (limit)\n' \
    "$(curl -s "http://127.0.0.1:$mm$p" | wc -c)" "$(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$mm$p" | wc -c)" \
    "$(curl -s -H 'Accept-Encoding: br' "http://127.0.0.1:$mm$p" | wc -c)" "$(curl -s -H 'Accept-Encoding: gzip' "http://127.0.0.1:$limit_port$p" | wc -c)"
  printf 'header bytes: %s (Meritmark), %s (limit)\n' \
    "$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "http://127.0.0.1:$mm$p" | wc -c)" "$(curl -s -o /dev/null -D - -H 'Accept-Encoding: gzip' "http://127.0.0.1:$limit_port$p" | wc -c)"
done

# resident memory over many requests (wrk runs in DURATION slices until RSS_REQUESTS are done)
rss() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$1/status"; }
rss_over() { # NAME PID URL
  local before; before=$(rss "$2")
  local done=0 n
  while [ "$done" -lt "$RSS_REQUESTS" ]; do
    n=$(wrk -t2 -c32 -d"$DURATION" "$3" 2>/dev/null | awk '/requests in/ {print $1}')
    done=$((done + n))
  done
  echo "RSS $1: $before MB -> $(rss "$2") MB over $done requests of ${paths[0]}"
}
if [ "$RSS_REQUESTS" -gt 0 ]; then
  rss_over mm "$mm_pid" "http://127.0.0.1:$mm${paths[0]}"
  [ "$OFF" = 0 ] || rss_over mm-off "$off_pid" "http://127.0.0.1:$off${paths[0]}"
fi
