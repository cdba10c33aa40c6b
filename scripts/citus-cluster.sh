#!/usr/bin/env bash
# A throwaway Citus cluster on one machine, for `npm run test:citus`: a coordinator and two
# workers, each a separate PostgreSQL instance listening on 127.0.0.1 only, with trust
# authentication. It never touches the machine's own PostgreSQL server. Citus and pgvector must
# be installed for that PostgreSQL version first (scripts/install-citus.sh, scripts/install-pgvector.sh).
#
#   scripts/citus-cluster.sh up [BASE]                    start coordinator on BASE (default 5441)
#                                                         and workers on BASE+1 and BASE+2; prints
#                                                         the coordinator's URL (database postgres)
#   scripts/citus-cluster.sh start-node PORT BASE [DB…]   start one extra instance on PORT with citus
#                                                         and vector in each database named; it is
#                                                         not added to the cluster (the caller does
#                                                         that, e.g. to test a rebalance)
#   scripts/citus-cluster.sh down [BASE]                  stop every instance of that cluster and
#                                                         delete its data
#
# Each instance keeps its data in /tmp/parley-citus-BASE/node-PORT, owned by the postgres user
# (PostgreSQL refuses to run as root; as root the script switches user). Citus keeps its metadata
# per database, so a new database needs the extensions and the node list again: the test helper
# (test/helpers/database.ts) does that for each database it creates.
set -euo pipefail

pg_major=$(ls /usr/lib/postgresql | sort -n | tail -1)
pg_bin=/usr/lib/postgresql/$pg_major/bin

require_citus() {
  if [[ ! -f /usr/lib/postgresql/$pg_major/lib/citus.so ]]; then
    echo "citus-cluster: Citus is not installed for PostgreSQL $pg_major; run scripts/install-citus.sh first" >&2
    exit 1
  fi
}

as_postgres() {
  if [[ $(id -u) -eq 0 ]]; then runuser -u postgres -- "$@"; else "$@"; fi
}
sql() { # port database statement
  as_postgres "$pg_bin/psql" -X -q -At -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$1" -d "$2" -c "$3"
}
cluster_dir() { echo "/tmp/parley-citus-$1"; }

# Creates (on first use) and starts one instance of the cluster whose coordinator is on base.
start_instance() { # base port
  local base=$1 port=$2 data
  data=$(cluster_dir "$base")/node-$port
  if [[ ! -f $data/PG_VERSION ]]; then
    mkdir -p "$data"
    [[ $(id -u) -eq 0 ]] && chown -R postgres:postgres "$(cluster_dir "$base")"
    as_postgres "$pg_bin/initdb" --pgdata="$data" --auth=trust --username=postgres >/dev/null
    cat >>"$data/postgresql.conf" <<CONF
port = $port
listen_addresses = '127.0.0.1'
unix_socket_directories = '$data'
shared_preload_libraries = 'citus'
max_connections = 200
# CREATE DATABASE on the coordinator also creates it on the workers.
citus.enable_create_database_propagation = on
# Shard moves (rebalancing) copy data through logical replication.
wal_level = logical
max_replication_slots = 10
max_wal_senders = 10
CONF
  fi
  as_postgres "$pg_bin/pg_ctl" --pgdata="$data" --log="$data/server.log" --wait --timeout=60 start >/dev/null
}

with_extensions() { # port database
  sql "$1" "$2" "CREATE EXTENSION IF NOT EXISTS citus; CREATE EXTENSION IF NOT EXISTS vector;"
}

command=${1:-}
shift || true
case $command in
  up)
    require_citus
    base=${1:-5441}
    for port in "$base" $((base + 1)) $((base + 2)); do
      start_instance "$base" "$port"
      with_extensions "$port" postgres
    done
    sql "$base" postgres "SELECT citus_set_coordinator_host('127.0.0.1', $base)" >/dev/null
    for port in $((base + 1)) $((base + 2)); do
      sql "$base" postgres "SELECT citus_add_node('127.0.0.1', $port)" >/dev/null
    done
    echo "postgres://postgres@127.0.0.1:$base/postgres"
    ;;
  start-node)
    port=$1
    base=$2
    shift 2
    require_citus
    start_instance "$base" "$port"
    with_extensions "$port" postgres
    for database in "$@"; do
      # Created on this instance alone: propagation would try to reach the cluster's workers.
      as_postgres env PGOPTIONS="-c citus.enable_create_database_propagation=off" \
        "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -d postgres \
        -c "CREATE DATABASE \"$database\""
      with_extensions "$port" "$database"
    done
    echo "127.0.0.1:$port"
    ;;
  down)
    base=${1:-5441}
    for data in "$(cluster_dir "$base")"/node-*; do
      if [[ -f $data/postmaster.pid ]]; then
        as_postgres "$pg_bin/pg_ctl" --pgdata="$data" --mode=fast --wait stop >/dev/null || true
      fi
    done
    rm -rf "$(cluster_dir "$base")"
    ;;
  *)
    sed -n '7,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
