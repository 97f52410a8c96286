# PostgreSQL for the notes service's test scripts (fleet-test.sh, upgrade-fault-test.sh), each
# on a cluster of its own in "$work/pg" on 127.0.0.1:"$pg_port". Sourced after `say`, `work` and
# `pg_port` are set; `start_postgres` installs PostgreSQL from the system's packages if missing
# and starts the cluster, `stop_postgres` stops it if it runs. PostgreSQL refuses to run as
# root, so as root it runs as `postgres`.
pg_bin=""
pg_ctl=""
as_postgres=()

find_pg_bin() {
    ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}

start_postgres() {
    pg_bin="$(find_pg_bin)"
    if [ -z "$pg_bin" ] || [ ! -x "$pg_bin/initdb" ]; then
        say "installing PostgreSQL"
        apt-get update >"$work/apt.log" 2>&1
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql >>"$work/apt.log" 2>&1
        pg_bin="$(find_pg_bin)"
        # Where the package starts its default cluster, stop it: the scripts run only their own.
        if command -v pg_lsclusters >/dev/null; then
            pg_lsclusters --no-header | while read -r cluster_version cluster_name _ cluster_status _; do
                if [ "$cluster_status" = online ]; then
                    pg_ctlcluster "$cluster_version" "$cluster_name" stop || true
                fi
            done
        fi
    fi
    pg_ctl="$pg_bin/pg_ctl"
    if [ "$(id -u)" -eq 0 ]; then
        id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
        as_postgres=(runuser -u postgres --)
        chmod 755 "$work"
        mkdir "$work/pg"
        chown postgres "$work/pg"
    else
        as_postgres=(env)
        mkdir "$work/pg"
    fi
    say "starting PostgreSQL ($pg_bin) on 127.0.0.1:$pg_port"
    "${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg" -U notes --auth=trust -E UTF8 >"$work/initdb.log" 2>&1
    # The cluster is thrown away at the end, and a killed client's half-done transaction is
    # rolled back by PostgreSQL itself, fsync or not: durability settings only slow the tests.
    "${as_postgres[@]}" "$pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
        -o "-p $pg_port -k $work/pg -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
        start >"$work/pg_ctl.log" 2>&1
}

stop_postgres() {
    if [ -n "$pg_ctl" ] && [ -f "$work/pg/postmaster.pid" ]; then
        "${as_postgres[@]}" "$pg_ctl" -D "$work/pg" -m fast -w stop >/dev/null 2>&1 || true
    fi
}
