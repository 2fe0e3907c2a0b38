#!/usr/bin/env bash
# A three-node MariaDB Galera cluster on loopback, for the cluster suite (test/cluster/) and the
# cluster bench. Debian's galera-4 provider, rsync state transfer, nodes run as the mysql user
# (rsync's receiving daemon must be able to write their data folders).
#
#   test/cluster/galera.sh start [DIR]   three nodes, SQL on 127.0.0.1:3311-3313 (root, no password)
#   test/cluster/galera.sh stop [DIR]
#   test/cluster/galera.sh node-stop N [DIR] / node-start N [DIR]   one node leaves / rejoins
#
# DIR defaults to /tmp/erp-galera. Node N listens on SQL port 3310+N, group port 4557+10N, IST
# port 4558+10N and state-transfer port 4559+10N.
set -euo pipefail

command_name="${1:-}"
case "$command_name" in
  node-stop|node-start) node_arg="${2:?node number}"; DIR="${3:-/tmp/erp-galera}" ;;
  *) DIR="${2:-/tmp/erp-galera}" ;;
esac
PROVIDER=/usr/lib/galera/libgalera_smm.so
NODES=(1 2 3)
as_mysql() { if [ "$(id -u)" = 0 ]; then runuser -u mysql -- "$@"; else "$@"; fi; }
sql_port() { echo $((3310 + $1)); }
group_port() { echo $((4557 + 10 * $1)); }
cluster_address() {
  local list=()
  for n in "${NODES[@]}"; do list+=("127.0.0.1:$(group_port "$n")"); done
  (IFS=,; echo "gcomm://${list[*]}")
}

write_config() {
  local n=$1 home="$DIR/node$1"
  mkdir -p "$home/data"
  cat >"$home/my.cnf" <<CNF
[mysqld]
user=mysql
datadir=$home/data
socket=$home/mysqld.sock
pid-file=$home/mysqld.pid
log-error=$home/error.log
port=$(sql_port "$n")
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_unicode_ci
default-storage-engine=InnoDB
innodb-buffer-pool-size=64M
innodb-log-file-size=32M
innodb-flush-log-at-trx-commit=2
max-connections=300
binlog-format=ROW
innodb-autoinc-lock-mode=2
wsrep-on=ON
wsrep-provider=$PROVIDER
wsrep-cluster-name=erp_ci
wsrep-cluster-address=$(cluster_address)
wsrep-node-name=node$n
wsrep-node-address=127.0.0.1
wsrep-provider-options="gmcast.listen_addr=tcp://127.0.0.1:$(group_port "$n");ist.recv_addr=127.0.0.1:$(($(group_port "$n") + 1));gcache.size=64M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S;evs.install_timeout=PT4S"
wsrep-sst-method=rsync
wsrep-sst-receive-address=127.0.0.1:$(($(group_port "$n") + 2))
wsrep-slave-threads=2
CNF
}

node_sql() { mariadb --no-defaults -h 127.0.0.1 -P "$(sql_port "$1")" -u root -N -B -e "$2" 2>/dev/null; }

wait_synced() {
  local n=$1
  for _ in $(seq 1 120); do
    # Synced, and this folder's node answering (not another cluster's on the same port).
    if [ "$(node_sql "$n" "SELECT CONCAT(@@datadir, ' ', VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'wsrep_local_state_comment'")" = "$DIR/node$n/data/ Synced" ]; then return 0; fi
    if ! kill -0 "$(cat "$DIR/node$n/mysqld.pid" 2>/dev/null || echo 0)" 2>/dev/null && [ -f "$DIR/node$n/started" ]; then break; fi
    sleep 0.5
  done
  echo "galera node $n did not reach Synced; its log:" >&2
  tail -n 40 "$DIR/node$n/error.log" >&2 || true
  return 1
}

start_node() {
  local n=$1 extra=("${@:2}")
  write_config "$n"
  chown -R mysql:mysql "$DIR/node$n" 2>/dev/null || true
  rm -f "$DIR/node$n/started"
  as_mysql /usr/sbin/mariadbd --defaults-file="$DIR/node$n/my.cnf" "${extra[@]}" >>"$DIR/node$n/stdout.log" 2>&1 &
  touch "$DIR/node$n/started"
  wait_synced "$n"
}

stop_node() {
  local n=$1 pid
  pid="$(cat "$DIR/node$n/mysqld.pid" 2>/dev/null || true)"
  [ -n "$pid" ] || return 0
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.5; done
  kill -9 "$pid" 2>/dev/null || true
}

# A cluster of an earlier run that was never stopped, from any folder, holds the ports: its nodes
# would answer as this one's. Every node of this script's clusters (its my.cnf names erp_ci) stops.
stop_leftover_clusters() {
  local pids=() pid config
  for pid in $(pgrep -f 'mariadbd --defaults-file=[^ ]*/node[0-9]/my.cnf' || true); do
    config="$(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null | sed -n 's/^--defaults-file=//p')"
    if [ -n "$config" ] && grep -q '^wsrep-cluster-name=erp_ci$' "$config" 2>/dev/null; then pids+=("$pid"); fi
  done
  [ "${#pids[@]}" -gt 0 ] || return 0
  echo "galera: stopping a cluster left running (pids ${pids[*]})"
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 1 60); do
    local alive=0
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
    [ "$alive" = 0 ] && return 0
    sleep 0.5
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
}

case "$command_name" in
  start)
    [ -x /usr/sbin/mariadbd ] && [ -f "$PROVIDER" ] || { echo "needs mariadb-server and galera-4" >&2; exit 1; }
    for n in "${NODES[@]}"; do stop_node "$n"; done
    stop_leftover_clusters
    rm -rf "$DIR"
    mkdir -p "$DIR"
    chmod 755 "$DIR"
    write_config 1
    chown -R mysql:mysql "$DIR"
    as_mysql mariadb-install-db --defaults-file="$DIR/node1/my.cnf" --auth-root-authentication-method=normal --skip-test-db >"$DIR/node1/install.log" 2>&1
    start_node 1 --wsrep-new-cluster
    for n in 2 3; do start_node "$n"; done
    echo "galera: three nodes synced on 127.0.0.1:$(sql_port 1)-$(sql_port 3) (cluster size $(node_sql 1 "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'wsrep_cluster_size'"))"
    ;;
  stop)
    for n in "${NODES[@]}"; do stop_node "$n"; done
    ;;
  node-stop) stop_node "$node_arg" ;;
  node-start) start_node "$node_arg" ;;
  *)
    echo "usage: $0 start|stop [DIR] | node-stop N [DIR] | node-start N [DIR]" >&2
    exit 2
    ;;
esac
