#!/usr/bin/env bash
# Many recordings as one table: `report --ndjson` over three inputs (two
# captures and a trace.dat), one file per input in a directory as a fleet
# would gather them, loaded by DuckDB (its npm package, @duckdb/node-api)
# with read_json as it is.  Per thread, DuckDB's sums over the rows equal
# each input's own `report --json` document; the rows carry their
# identity; the wakeup latency buckets summed in SQL give a fleet p99
# (nearest rank over the merged buckets, with a window sum) equal to the
# one this test computes from the buckets itself, and for each input alone
# a bucket holding that report's own p99.  --csv over the three is the
# same table.
set -u
. "$(dirname "$0")/../helpers/fixture-common.bash"
command -v node >/dev/null || skip "node is not installed (scripts/install-deps)"
NODE_PATH=${NODE_PATH:-$(npm root -g 2>/dev/null)}
export NODE_PATH
node -e "require('@duckdb/node-api')" 2>/dev/null ||
	skip "DuckDB's npm package @duckdb/node-api is not installed (scripts/install-deps)"
inputs=("$FIX/sched-tcp.cap" "$FIX/weird-comm.cap" "$FIX/tracedat-v7.dat")
mkdir fleet
for i in 0 1 2; do
	"$F2T" report --ndjson "${inputs[$i]}" >"fleet/host$i.ndjson" 2>err ||
		fail "report --ndjson ${inputs[$i]}: $(cat err)"
	"$F2T" report --json "${inputs[$i]}" >"doc$i.json" 2>err ||
		fail "report --json ${inputs[$i]}: $(cat err)"
done
"$F2T" report --ndjson "${inputs[@]}" >all.ndjson 2>err || fail "report --ndjson A B C: $(cat err)"
cat fleet/host0.ndjson fleet/host1.ndjson fleet/host2.ndjson | cmp -s - all.ndjson ||
	fail "--ndjson over three inputs is not their three files one after another"
"$F2T" report --json "${inputs[@]}" | cmp -s - all.ndjson ||
	fail "--json over several inputs is not --ndjson's rows"
"$F2T" report --csv "${inputs[@]}" >all.csv 2>err || fail "report --csv A B C: $(cat err)"
ok "--ndjson, --json and --csv over three inputs"

cat >duck.js <<'JS'
const { DuckDBInstance } = require('@duckdb/node-api');
const src = "read_json('fleet/*.ndjson', format = 'newline_delimited')";
(async () => {
  const db = await (await DuckDBInstance.create(':memory:')).connect();
  const q = async (sql) => (await db.runAndReadAll(sql)).getRowObjectsJson();
  const threads = await q(`select input, tid, host, boot_id, cpu_model, clock,
      sum(running_ns) running, sum(sleeping_ns) sleeping,
      sum(runnable_woken_ns + runnable_preempted_ns) runnable, sum(wakeups) wakeups
    from ${src} group by all order by input, tid`);
  // Nearest rank over the buckets summed per KEY: the first bucket whose running total reaches it.
  const merged = (key) => `with b as (select ${key} k, unnest(wakeup_buckets) b from ${src}),
      m as (select k, b.lo_ns lo, sum(b.count) n from b group by all),
      c as (select k, lo, sum(n) over (partition by k order by lo) cum,
                   sum(n) over (partition by k) total from m)
    select k as "input", min(lo) p99_lo, any_value(total) total from c
    where cum >= ceil(0.99 * total) group by all order by all`;
  const fleet = await q(merged("'fleet'"));
  const each = await q(merged('input'));
  const csv = await q(`select count(*) n, sum(running_ns) running from read_csv('all.csv', encoding = 'latin-1')`);
  console.log(JSON.stringify({ threads, fleet, each, csv }));
})().catch((e) => { console.error(e); process.exit(1); });
JS
node duck.js >duck.json 2>err || fail "DuckDB: $(cat err)"

python3 - "${inputs[@]}" <<'PY' || fail "see above"
import json, math, sys

duck = json.load(open('duck.json'))
bad = []

def need(cond, what):
    print(('ok: ' if cond else 'BAD: ') + what)
    if not cond:
        bad.append(what)

docs = {sys.argv[1 + i]: json.load(open(f'doc{i}.json')) for i in range(3)}
got = {(r['input'], int(r['tid'])): r for r in duck['threads']}
n = 0
for path, doc in docs.items():
    for p in doc['processes']:
        for t in p['threads']:
            n += 1
            r = got.get((path, t['tid']))
            runnable = t['runnable_woken_ns'] + t['runnable_preempted_ns']
            if (r is None or int(r['running']) != t['running_ns'] or
                    int(r['sleeping']) != t['sleeping_ns'] or int(r['runnable']) != runnable or
                    int(r['wakeups']) != t['wakeups']):
                need(False, f"{path} tid {t['tid']}: DuckDB {r}, report {t}")
need(not bad and n == len(got), f"{n} threads of 3 inputs: DuckDB's per-thread sums equal the reports'")
for path, doc in docs.items():
    rows = [r for r in duck['threads'] if r['input'] == path]
    need(all(r['host'] == doc['recording']['host'] and r['clock'] == doc['recording']['clock']
             and r['boot_id'] == doc['recording']['boot_id'] for r in rows),
         f"{path}: every row carries the recording's identity ({doc['recording']['host']}, "
         f"boot {doc['recording']['boot_id']})")

# The fleet p99 from the buckets, without DuckDB: merge, then nearest rank.
def p99_lo(rows):
    counts = {}
    for r in rows:
        for b in r['wakeup_buckets']:
            counts[b['lo_ns']] = counts.get(b['lo_ns'], 0) + b['count']
    total = sum(counts.values())
    rank, seen = math.ceil(0.99 * total), 0
    for lo in sorted(counts):
        seen += counts[lo]
        if seen >= rank:
            return lo, total

rows = [json.loads(l) for l in open('all.ndjson')]
lo, total = p99_lo(rows)
f = duck['fleet'][0]
need((int(f['p99_lo']), int(f['total'])) == (lo, total),
     f"fleet p99 in SQL: the bucket from {f['p99_lo']} ns of {f['total']} wakeups; merged here: {lo} ns of {total}")
need(total == sum(d['wakeup_latency']['wakeups'] for d in docs.values()),
     "the buckets count every wakeup the three reports count")
for e in duck['each']:
    doc = docs[e['input']]
    mine = [r for r in rows if r['input'] == e['input']]
    bucket = next(b for r in mine for b in r['wakeup_buckets'] if b['lo_ns'] == int(e['p99_lo']))
    p99 = doc['wakeup_latency']['p99_ns']
    need(bucket['lo_ns'] <= p99 and (bucket['hi_ns'] is None or p99 < bucket['hi_ns']),
         f"{e['input']}: SQL's p99 bucket [{bucket['lo_ns']}, {bucket['hi_ns']}) holds the report's p99 {p99}")
c = duck['csv'][0]
need(int(c['n']) == len(rows) and int(c['running']) == sum(r['running_ns'] for r in rows),
     f"the CSV of the three is the same table ({c['n']} rows)")
sys.exit(1 if bad else 0)
PY
ok "three inputs' NDJSON in DuckDB: per-thread sums and the fleet p99 from summed buckets"
