#!/usr/bin/env bash
# Regenerates the figures of docs/performance.md in one command (issue 22
# item 6) and prints them as markdown on stdout:
#
#   bash crates/benches/tables.sh > /tmp/figures.md
#
# Run it on a quiet machine: it says which machine, which commit and the
# load average before and after, because absolute times mean nothing on a
# loaded one. The ratio columns (arbitre against a limit measured in the
# same run: `limit_lines` for parsing, the raw pipeline for ingest) stay
# meaningful when the load moves. Environment:
#   TABLES_FULL=1           add the largest sizes (100,000 worlds, 5,000
#                           territories and zones with 200 players: minutes)
#   CAPACITY_GAMES, CAPACITY_ROUNDS   the capacity run (default 300 games,
#                           3 rounds; the issue's is 10000 and 10)
#   ARBITRE_BENCH_DIR       where the benches put their databases and mail
set -euo pipefail
cd "$(dirname "$0")/../.."

games=${CAPACITY_GAMES:-300}
rounds=${CAPACITY_ROUNDS:-3}
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "## Figures of $(date -u '+%Y-%m-%d %H:%M') UTC"
echo
echo "Commit \`$(git rev-parse --short HEAD)\`; $(nproc) cores ($cpu), $(free -g | awk '/^Mem:/ {print $2}') GiB;"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)."
echo "Command: \`bash crates/benches/tables.sh\` (TABLES_FULL=${TABLES_FULL:-0}, capacity $games games, $rounds rounds)."
echo

cargo build --quiet --release -p arbitre-benches --examples --benches 2>&1 | grep -v '^$' >&2 || true

echo "### Turn resolution, reports, memory (\`--example figures\`)"
echo
sizes=(
  "nebulight 1000 2" "nebulight 10000 2"
  "eds 1000 10" "eds 10000 10"
  "scrambled 50 4" "scrambled 500 20" "scrambled 500 50"
  "wwk 50 4" "wwk 500 20" "wwk 500 50"
)
if [ "${TABLES_FULL:-0}" = 1 ]; then
  sizes+=("nebulight 100000 2" "eds 10000 99" "scrambled 5000 50" "scrambled 5000 200" "wwk 5000 50" "wwk 5000 200")
fi
first=1
for s in "${sizes[@]}"; do
  # shellcheck disable=SC2086
  out=$(cargo run --quiet --release -p arbitre-benches --example figures -- $s)
  if [ $first = 1 ]; then echo "$out"; first=0; else echo "$out" | tail -n +3; fi
done
echo

echo "### Order parsing (\`--bench parse\`, CPU time of the thread)"
echo
echo "| ruleset | game | allocations per order | parse MB/s | limit_lines MB/s | limit / parse |"
echo "|---|---|---|---|---|---|"
# The filter matches no criterion group: only the bench's own CPU-time
# lines run, not criterion's minutes of sampling.
cargo bench --quiet -p arbitre-benches --bench parse -- no-criterion-group 2>/dev/null |
  perl -ne '
    if (/^parse (\S+) (\S+): .* ([0-9.]+) per order$/) { $alloc{"$1 $2"} = $3 }
    if (/^parse (\S+) (\S+): CPU time ([0-9.]+) MB\/s, limit_lines ([0-9.]+) MB\/s \(([0-9.]+)x\)/) {
      print "| $1 | $2 | $alloc{\"$1 $2\"} | $3 | $4 | $5x |\n"
    }'
echo

echo "### Mail ingest (\`--bench ingest\`, the ratio to the raw pipeline)"
echo
for i in 1 2 3; do
  ARBITRE_INGEST_RATIO_ONLY=1 cargo bench --quiet -p arbitre-benches --bench ingest 2>/dev/null |
    grep '^ingest ratio' | sed 's/^/- /'
done
echo

echo "### Capacity (\`--example capacity -- $games $rounds\`)"
echo
cargo run --quiet --release -p arbitre-benches --example capacity -- "$games" "$rounds" |
  awk '/^round \|/ { print "| " $0 " |"; n = split($0, f, "|"); s = "|"; for (i = 1; i <= n; i++) s = s "---|"; print s; next }
       /^[0-9]+ \|/ { print "| " $0 " |"; next }
       { print "\n" $0 }'
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
