#!/usr/bin/env bash
# Makes sure PostgreSQL answers at 127.0.0.1:5432 for user postgres without a password, as
# the PostgreSQL pass of make test needs: when it does not, installs Debian's postgresql
# (as root) if it is missing, lets user postgres in from loopback (trust, marked
# "meritmark-test" in pg_hba.conf: a test machine's setting) and starts the cluster.
# Exits 0 when PostgreSQL answers, 1 with a message when it cannot make it.
set -euo pipefail

ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && psql -h 127.0.0.1 -U postgres -Atc 'select 1' >/dev/null 2>&1; }
ready && exit 0

say() { echo "pg-ensure: $*" >&2; }
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || ! command -v psql >/dev/null; then
	if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
		say "PostgreSQL is not installed: install it (Debian: apt-get install postgresql), or run make test as root on Debian"
		exit 1
	fi
	say "installing Debian's postgresql for the PostgreSQL pass"
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
ver=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -1)
if [ -z "$ver" ] || [ ! -d "/etc/postgresql/$ver/main" ]; then
	say "no PostgreSQL cluster in /etc/postgresql (pg_createcluster makes one)"
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	say "PostgreSQL $ver does not answer at 127.0.0.1:5432 for user postgres: start it (pg_ctlcluster $ver main start) and allow that user from loopback"
	exit 1
fi
hba=/etc/postgresql/$ver/main/pg_hba.conf
if ! grep -q meritmark-test "$hba"; then
	say "letting user postgres in from loopback without a password ($hba)"
	sed -i '1i host all postgres 127.0.0.1/32 trust # meritmark-test\nhost all postgres ::1/128 trust # meritmark-test' "$hba"
fi
conf=/etc/postgresql/$ver/main/postgresql.conf
grep -Eq "^\s*port\s*=\s*5432" "$conf" || sed -i 's/^#\?\s*port\s*=.*/port = 5432/' "$conf"
say "starting PostgreSQL $ver"
pg_ctlcluster --skip-systemctl-redirect "$ver" main start 2>/dev/null || pg_ctlcluster --skip-systemctl-redirect "$ver" main reload
for _ in $(seq 60); do
	ready && exit 0
	sleep 0.5
done
say "PostgreSQL $ver did not answer at 127.0.0.1:5432 within 30 s"
exit 1
