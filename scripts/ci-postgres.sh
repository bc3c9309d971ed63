#!/usr/bin/env bash
# Starts the machine's PostgreSQL cluster and makes a superuser role and an empty test database for the server tests.
# Prints the connection URL as its last line (used by .ci/run as TEST_DATABASE_URL). Safe to run twice.
set -euo pipefail
cluster="$(pg_lsclusters --no-header | awk 'NR==1 {print $1" "$2}')"
if [ -z "$cluster" ]; then
  ver="$(ls /usr/lib/postgresql | sort -n | tail -n 1)"
  pg_createcluster "$ver" main >/dev/null
  cluster="$ver main"
fi
# shellcheck disable=SC2086
pg_ctlcluster $cluster start 2>/dev/null || true
port="$(pg_lsclusters --no-header | awk 'NR==1 {print $3}')"
for _ in $(seq 1 30); do
  su postgres -c "psql -p $port -tAc 'select 1'" >/dev/null 2>&1 && break
  sleep 1
done
su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -q" >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'zy') THEN CREATE ROLE zy LOGIN SUPERUSER PASSWORD 'zy'; END IF;
END \$\$;
SQL
if ! su postgres -c "psql -p $port -tAc \"select 1 from pg_database where datname='zy_test'\"" | grep -q 1; then
  su postgres -c "createdb -p $port -O zy zy_test"
fi
echo "postgres://zy:zy@127.0.0.1:$port/zy_test"
