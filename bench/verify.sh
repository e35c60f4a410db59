#!/usr/bin/env bash
# The verify page under load: a seeded SQLite server, one badge granted through the real
# flow (register, apply, pay with the 100% coupon, admin approval), then wrk -t2 -c64 on
# the shared link /verify/{publicId} (anonymous visitors: the cached, already verified
# page), the JSON API and the social card. Usage: bench/verify.sh [seconds]
# With DATABASE_URL=postgres://… the server runs on PostgreSQL instead.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v wrk >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null; }
[ -x bin/meritmark ] || make build
secs=${1:-10}
data=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
export MERITMARK_DATA_DIR=$data MERITMARK_ADDR=127.0.0.1:$port MERITMARK_LOG_LEVEL=warn MERITMARK_DEMO_ADMIN_PASSWORD=bench-admin-password
./bin/meritmark seed >/dev/null
./bin/meritmark serve 2>/dev/null &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$data"' EXIT
url=http://127.0.0.1:$port
api=$url/backend/api/v1
until curl -sf "$url/readyz" >/dev/null; do sleep 0.05; done

jar=$data/member.jar
badge=$(curl -sf "$api/badges/with-ownership" | python3 -c 'import json,sys; print([b["_id"] for b in json.load(sys.stdin)["badges"] if b["name"]=="Open Source Contributor"][0])')
curl -sf -c "$jar" -b "$jar" -H "Origin: $url" -H 'Content-Type: application/json' \
  -d '{"name":"Ada Lovelace","email":"ada-bench@example.com","password":"password-123"}' "$api/auth/register" >/dev/null
printf '%%PDF-1.7\n%%%%EOF\n' > "$data/proof.pdf"
app=$(curl -sf -c "$jar" -b "$jar" -H "Origin: $url" -F badgeId="$badge" -F type=proof -F fullName='Ada Lovelace' -F position=Engineer \
  -F linkedin=https://linkedin.com/in/ada -F portfolio=https://ada.example -F description=bench -F "proofFiles=@$data/proof.pdf;type=application/pdf" \
  "$api/applications" | python3 -c 'import json,sys; print(json.load(sys.stdin)["application"]["_id"])')
curl -sf -c "$jar" -b "$jar" -H "Origin: $url" -H 'Content-Type: application/json' \
  -d "{\"badgeId\":\"$badge\",\"amount\":0,\"status\":\"success\",\"provider\":\"free-grant\",\"couponCode\":\"FREEGRANT\"}" "$api/payments" >/dev/null
ajar=$data/admin.jar
curl -sf -c "$ajar" -b "$ajar" -H "Origin: $url" -H 'Content-Type: application/json' \
  -d '{"email":"admin@meritmark.local","password":"bench-admin-password"}' "$api/auth/login" >/dev/null
pub=$(curl -sf -c "$ajar" -b "$ajar" -X PUT -H "Origin: $url" -H 'Content-Type: application/json' -d '{}' "$api/admin/applications/$app/approve" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["application"]["grant"]["publicVerificationId"])')
echo "granted: $url/verify/$pub"
curl -sf "$url/verify/$pub" | grep -q 'Verified Badge' && echo "page check: the result is in the HTML"

for p in "/verify/$pub" "/backend/api/v1/verify/badge/$pub" "/credentials/$pub/card.png"; do
  echo "== wrk -t2 -c64 -d${secs}s $p"
  wrk -t2 -c64 -d"${secs}s" --latency "$url$p" | grep -E "Requests/sec|Latency|50%|99%|Non-2xx|Socket errors" || true
done
