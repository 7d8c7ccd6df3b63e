#!/usr/bin/env bash
# Compares `cachelab serve` with Debian's nginx serving the same photo bytes as static files,
# under the same wrk load on this machine, and prints a table of medians and the ratio.
#
#   scripts/serve-vs-nginx/run.sh PATH/TO/cachelab [options]
#
# Use a release binary (swift build -c release --product cachelab): a debug build is several
# times slower and says nothing about the server.
#
# Options (defaults in brackets):
#   --duration D      wrk -d for each measured run [20s]
#   --threads N       wrk -t [2]
#   --connections N   wrk -c [64]
#   --rounds N        runs per server and path set, alternating which server goes first [3]
#   --workers N       nginx worker_processes [auto: one per core, as Debian ships it; Hummingbird
#                     runs one event loop per core too, plus Swift's concurrency pool]
#   --sets LIST       path sets, comma-separated, from all,small,large,one [all,small,large,one]
#   --pin             servers on core 0, wrk on core 1 (taskset), nginx with 1 worker: each side
#                     gets one whole core instead of sharing both with wrk
#   --keep DIR        copy the raw wrk outputs and the configuration there
#
# It installs nginx and wrk with apt-get when they are missing (as root), starts both servers on
# free loopback ports, checks that they serve identical bytes, runs wrk, stops both servers and
# removes its temporary folder, whatever happens. Traffic goes to 127.0.0.1 only.
#
# Besides req/s, MB/s and latency it reports the CPU each server used per request, and the CPU that
# other processes used meanwhile ("other CPU"): on a shared machine, run it as `nice -n -15 ...`
# (root) and distrust rows whose other CPU is not near 0.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
lua="$here/cycle-paths.lua"
duration=20s threads=2 connections=64 rounds=3 workers=auto sets=all,small,large,one keep="" pin=""

usage() { sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
[ $# -ge 1 ] || usage 2
case "$1" in -h | --help) usage 0 ;; esac
cachelab="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
shift
[ -x "$cachelab" ] || { echo "not an executable: $cachelab" >&2; exit 2; }
while [ $# -gt 0 ]; do
    case "$1" in
        --duration) duration="$2" ;;
        --threads) threads="$2" ;;
        --connections) connections="$2" ;;
        --rounds) rounds="$2" ;;
        --workers) workers="$2" ;;
        --sets) sets="$2" ;;
        --keep) keep="$2" ;;
        --pin) pin=1 workers=1; shift; continue ;;
        *) echo "unknown option $1" >&2; usage 2 ;;
    esac
    shift 2
done
[ -f "$lua" ] || { echo "missing $lua (keep it beside this script)" >&2; exit 2; }
server_cpus=() wrk_cpus=()
if [ -n "$pin" ]; then
    [ "$(nproc)" -ge 2 ] || { echo "--pin needs 2 cores" >&2; exit 2; }
    server_cpus=(taskset -c 0) wrk_cpus=(taskset -c 1)
fi

# --- tools ---------------------------------------------------------------------------------------
missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "install ${missing[*]} first (apt-get install ${missing[*]})" >&2; exit 2; }
    apt-get update -qq
    # policy-rc.d may refuse to start the system nginx service; that is fine, we run our own.
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"

# --- temporary folder and cleanup ----------------------------------------------------------------
work="$(mktemp -d "${TMPDIR:-/tmp}/serve-vs-nginx.XXXXXX")"
serve_pid="" nginx_pid=""
cleanup() {
    local status=$?
    if [ -n "$serve_pid" ] && kill -0 "$serve_pid" 2>/dev/null; then
        kill -TERM "$serve_pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$serve_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$serve_pid" 2>/dev/null || true
    fi
    if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill -QUIT "$nginx_pid" 2>/dev/null || true  # graceful: the master stops its workers
        for _ in $(seq 50); do kill -0 "$nginx_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$nginx_pid" 2>/dev/null || true
    fi
    wait 2>/dev/null || true
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# nginx's workers may run as another user (nobody when started as root): let them read the files.
chmod 755 "$work"

free_port() {
    local port
    for _ in $(seq 100); do
        port=$((20000 + RANDOM % 40000))
        # A port nothing accepts on refuses the connection.
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
    echo "no free port found" >&2
    exit 1
}

# --- cachelab serve ------------------------------------------------------------------------------
"${server_cpus[@]}" "$cachelab" serve --port 0 >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 300); do
    grep -q '^http://' "$work/serve.out" 2>/dev/null && break
    kill -0 "$serve_pid" 2>/dev/null || {
        echo "$cachelab serve --port 0 exited before printing its URL:" >&2
        cat "$work/serve.err" >&2
        exit 1
    }
    sleep 0.1
done
cachelab_url="$(head -n1 "$work/serve.out")"
[ -n "$cachelab_url" ] || { echo "cachelab serve printed no URL in 30 s" >&2; exit 1; }

# --- the same bytes as static files --------------------------------------------------------------
curl -fsS "$cachelab_url/recipes.json" -o "$work/recipes.json"
grep -o '"photo_url_\(small\|large\)": "[^"]*"' "$work/recipes.json" | sed 's/.*": "//; s/"$//' \
    | sed "s|^$cachelab_url||" >"$work/all.txt"
grep '/small\.jpg$' "$work/all.txt" >"$work/small.txt"
grep '/large\.jpg$' "$work/all.txt" >"$work/large.txt"
head -n1 "$work/small.txt" >"$work/one.txt"
photo_count=$(wc -l <"$work/all.txt")
[ "$photo_count" -gt 0 ] || { echo "no photo URL in recipes.json" >&2; exit 1; }
mkdir -p "$work/root"
while read -r path; do
    mkdir -p "$work/root$(dirname "$path")"
    curl -fsS "$cachelab_url$path" -o "$work/root$path"
done <"$work/all.txt"
chmod -R a+rX "$work/root"

nginx_port="$(free_port)"
nginx_url="http://127.0.0.1:$nginx_port"
# Debian's /etc/nginx/nginx.conf for what matters to static files (worker_processes auto,
# worker_connections 768, sendfile on, tcp_nopush on, mime.types), minus its access log: the
# fixture server writes no per-request log either.
cat >"$work/nginx.conf" <<EOF
worker_processes $workers;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 768; }
http {
    sendfile on;
    tcp_nopush on;
    types_hash_max_size 2048;
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    access_log off;
    server {
        listen 127.0.0.1:$nginx_port;
        root $work/root;
    }
}
EOF
"${server_cpus[@]}" "$nginx_bin" -e "$work/nginx-error.log" -c "$work/nginx.conf" -p "$work" -g 'daemon off;' &
nginx_pid=$!
for _ in $(seq 100); do
    curl -fsS -o /dev/null "$nginx_url$(head -n1 "$work/one.txt")" 2>/dev/null && break
    kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx-error.log" >&2; exit 1; }
    sleep 0.1
done

# --- identical bytes -----------------------------------------------------------------------------
while read -r path; do
    a="$(curl -fsS "$cachelab_url$path" | sha256sum)"
    b="$(curl -fsS "$nginx_url$path" | sha256sum)"
    [ "$a" = "$b" ] || { echo "bytes differ at $path" >&2; exit 1; }
done <"$work/all.txt"
total_bytes=$(cat "$work/root"/photos/*/* | wc -c)
small_avg=$(($(cat "$work/root"/photos/*/small.jpg | wc -c) / $(wc -l <"$work/small.txt")))
large_avg=$(($(cat "$work/root"/photos/*/large.jpg | wc -c) / $(wc -l <"$work/large.txt")))

echo "cachelab: $cachelab_url ($cachelab)"
echo "nginx:    $nginx_url ($("$nginx_bin" -v 2>&1 | sed 's/.*: //'), worker_processes $workers)"
echo "photos:   $photo_count, identical bytes on both ($total_bytes bytes; small avg $small_avg, large avg $large_avg)"
echo "machine:  $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(uname -r); wrk shares the cores"
echo "wrk:      -t$threads -c$connections -d$duration --latency, $rounds rounds, servers alternating"
[ -z "$pin" ] || echo "pinned:   servers on core 0, wrk on core 1"
echo

# --- load ----------------------------------------------------------------------------------------
# Seconds of wrk's "50.00%  1.23ms" style values, in milliseconds.
to_ms() {
    awk -v v="$1" 'BEGIN {
        n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
        if (u == "us") n /= 1000; else if (u == "s") n *= 1000; else if (u == "m") n *= 60000
        printf "%.3f", n }'
}
to_mb() {
    awk -v v="$1" 'BEGIN {
        n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
        if (u == "B") n /= 1048576; else if (u == "KB") n /= 1024; else if (u == "GB") n *= 1024
        printf "%.1f", n }'
}
# CPU time, in clock ticks, of a process and its direct children (nginx's workers).
cpu_ticks() {
    local total=0 pid ticks
    for pid in $1 $(pgrep -P "$1" || true); do
        # Fields after the ")" that closes the command name: utime and stime are the 12th and 13th.
        ticks=$(sed 's/.*) //' "/proc/$pid/stat" 2>/dev/null | awk '{print $12 + $13}')
        total=$((total + ${ticks:-0}))
    done
    echo "$total"
}
ticks_per_second=$(getconf CLK_TCK)
# User and system CPU ticks of the whole machine (every core), from /proc/stat.
machine_ticks() { awk '$1 == "cpu" {print $2 + $3 + $4}' /proc/stat; }
# One wrk run; appends "set server rps MB/s avg_ms p50_ms p99_ms errors server_cores wrk_cores
# server_cpu_us_per_request other_cores" to results. Other cores is what the rest of the machine
# used meanwhile: anything well above 0 means the run was disturbed.
measure() {
    local set=$1 server=$2 url=$3 round=$4 pid=$5 out
    out="$work/wrk-$set-$server-$round.txt"
    local before after wrk_user wrk_sys wall
    before=$(cpu_ticks "$pid")
    local machine_before machine_after
    machine_before=$(machine_ticks)
    { TIMEFORMAT='%U %S %R' && time "${wrk_cpus[@]}" wrk -t"$threads" -c"$connections" -d"$duration" --latency -s "$lua" "$url" \
        -- "$work/$set.txt" >"$out" 2>&1; } 2>"$out.time"
    after=$(cpu_ticks "$pid")
    machine_after=$(machine_ticks)
    local rps mbs avg p50 p99 errors count cores wrk_cores us other
    rps=$(awk '/^Requests\/sec:/ {print $2}' "$out")
    [ -n "$rps" ] || { cat "$out" >&2; exit 1; }
    mbs=$(to_mb "$(awk '/^Transfer\/sec:/ {print $2}' "$out")")
    avg=$(to_ms "$(awk '$1 == "Latency" {print $2; exit}' "$out")")
    p50=$(to_ms "$(awk '$1 == "50%" {print $2}' "$out")")
    p99=$(to_ms "$(awk '$1 == "99%" {print $2}' "$out")")
    errors=$(awk '/Non-2xx|Socket errors/ {n++} END {print n + 0}' "$out")
    count=$(awk '/requests in/ {print $1}' "$out")
    read -r wrk_user wrk_sys wall <"$out.time"
    cores=$(awk -v t=$((after - before)) -v h="$ticks_per_second" -v w="$wall" 'BEGIN {printf "%.2f", t / h / w}')
    wrk_cores=$(awk -v u="$wrk_user" -v s="$wrk_sys" -v w="$wall" 'BEGIN {printf "%.2f", (u + s) / w}')
    us=$(awk -v t=$((after - before)) -v h="$ticks_per_second" -v n="$count" 'BEGIN {printf "%.1f", t / h * 1e6 / n}')
    other=$(awk -v m=$((machine_after - machine_before)) -v t=$((after - before)) -v h="$ticks_per_second" \
        -v u="$wrk_user" -v s="$wrk_sys" -v w="$wall" 'BEGIN {v = (m - t) / h / w - (u + s) / w; printf "%.2f", v < 0 ? 0 : v}')
    echo "$set $server $rps $mbs $avg $p50 $p99 $errors $cores $wrk_cores $us $other" >>"$work/results.txt"
    printf '  %-5s %-8s round %d: %8.0f req/s %7s MB/s  avg %6s ms  p50 %6s ms  p99 %7s ms' \
        "$set" "$server" "$round" "$rps" "$mbs" "$avg" "$p50" "$p99"
    printf '  server %s cores, wrk %s, others %s; %s us CPU/request%s\n' "$cores" "$wrk_cores" "$other" "$us" \
        "$([ "$errors" = 0 ] || echo "  ERRORS: see $out")"
}

: >"$work/results.txt"
# Warm both servers (first connections, page cache, the fixture server's rendered bodies).
wrk -t"$threads" -c"$connections" -d3s -s "$lua" "$cachelab_url" -- "$work/all.txt" >/dev/null
wrk -t"$threads" -c"$connections" -d3s -s "$lua" "$nginx_url" -- "$work/all.txt" >/dev/null
IFS=, read -r -a set_list <<<"$sets"
for set in "${set_list[@]}"; do
    [ -f "$work/$set.txt" ] || { echo "unknown path set $set (all, small, large, one)" >&2; exit 2; }
    for round in $(seq "$rounds"); do
        if [ $((round % 2)) = 1 ]; then
            measure "$set" cachelab "$cachelab_url" "$round" "$serve_pid"
            measure "$set" nginx "$nginx_url" "$round" "$nginx_pid"
        else
            measure "$set" nginx "$nginx_url" "$round" "$nginx_pid"
            measure "$set" cachelab "$cachelab_url" "$round" "$serve_pid"
        fi
    done
done

# --- summary -------------------------------------------------------------------------------------
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
col() { awk -v s="$1" -v v="$2" -v c="$3" '$1 == s && $2 == v {print $c}' "$work/results.txt" | median; }
echo
echo "Medians of $rounds runs (wrk -t$threads -c$connections -d$duration; latency in ms; CPU in cores busy on"
echo "average: the server's, wrk's and everything else's; CPU/request is the server's CPU time per request)"
echo
echo "| paths | server | req/s | MB/s | latency avg | p50 | p99 | server CPU | wrk CPU | other CPU | CPU/request | ratio (req/s) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for set in "${set_list[@]}"; do
    case "$set" in
        all) label="all $photo_count" ;; small) label="small $(wc -l <"$work/small.txt")" ;;
        large) label="large $(wc -l <"$work/large.txt")" ;; one) label="one small" ;;
    esac
    c_rps=$(col "$set" cachelab 3) n_rps=$(col "$set" nginx 3)
    ratio=$(awk -v a="$c_rps" -v b="$n_rps" 'BEGIN {printf "%.2f", a / b}')
    for server in cachelab nginx; do
        printf '| %s | %s | %.0f | %s | %s | %s | %s | %s | %s | %s | %s µs | %s |\n' "$label" "$server" \
            "$(col "$set" "$server" 3)" "$(col "$set" "$server" 4)" "$(col "$set" "$server" 5)" \
            "$(col "$set" "$server" 6)" "$(col "$set" "$server" 7)" "$(col "$set" "$server" 9)" \
            "$(col "$set" "$server" 10)" "$(col "$set" "$server" 12)" "$(col "$set" "$server" 11)" \
            "$([ "$server" = cachelab ] && echo "**$ratio**" || echo "")"
    done
done
if awk '$8 != 0 {bad = 1} END {exit !bad}' "$work/results.txt"; then
    echo
    echo "Some runs had socket errors or non-2xx answers: rerun with --keep DIR and read the wrk outputs."
fi
if awk '$12 > 0.2 {bad = 1} END {exit !bad}' "$work/results.txt"; then
    echo
    echo "Other processes used more than 0.2 cores during some runs: those figures are disturbed."
fi
echo
curl -fsS "$cachelab_url/stats" | grep -m1 '"requests"' | sed 's/^ */fixture server counted: /'

if [ -n "$keep" ]; then
    mkdir -p "$keep"
    cp "$work"/wrk-*.txt "$work/results.txt" "$work/nginx.conf" "$work"/*.txt "$keep"/ 2>/dev/null || true
fi
