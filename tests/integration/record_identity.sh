#!/usr/bin/env bash
# Which host, kernel, boot and run an output came from (root): a recording
# written as .pftrace, .fxt, .json and its capture's report must each carry
# what this machine says of itself — hostname, uname -r, -v and -m, the
# boot id in /proc/sys/kernel/random/boot_id, the CPU model in
# /proc/cpuinfo, the CPU count, date +%z's time zone, the command, the
# start as a wall-clock time between the moments before and after `record`
# ran — as Perfetto's trace processor reads them from the .pftrace (its
# metadata table: system_* and cr-KEY) and from the .fxt (the Perfetto
# packets of its blob, and the arguments of the instant
# "ftrace2trace_recording"), in the JSON's otherData (a file catapult's
# importer still loads), and in `report`'s header, JSON and CSV.  A capture
# from before these were recorded (the fixture) says "unknown"; a trace.dat
# gives what its uname option holds.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
need_trace_processor
cd "$TMP" || exit 1

before=$(date +%s%N)
"$F2T" record -q --no-sample -k id.cap -o id.pftrace -o id.fxt -o id.json -- sleep 0.05 \
	>out 2>err || fail "record: $(cat err)"
after=$(date +%s%N)
"$F2T" report --json id.cap >report.json 2>err || fail "report --json: $(cat err)"
"$F2T" report --csv id.cap >report.csv 2>err || fail "report --csv: $(cat err)"
"$F2T" report id.cap >report.txt 2>err || fail "report: $(cat err)"
"$F2T" report --json "$F2T_TESTS/fixtures/sched-tcp.cap" >old.json 2>err || fail "report old: $(cat err)"
"$F2T" report --json "$F2T_TESTS/fixtures/tracedat-v7.dat" >dat.json 2>err || fail "report dat: $(cat err)"
q='select name, coalesce(str_value, cast(int_value as text)) from metadata'
"$TP" -q <(echo "$q") id.pftrace >pf.csv 2>tp.err || fail "trace_processor: $(cat tp.err)"
"$TP" -q <(echo "$q") id.fxt >fxt.csv 2>tp.err || fail "trace_processor (FXT): $(cat tp.err)"
"$TP" -q <(echo "select a.key, a.display_value from slice s join args a using (arg_set_id)
	where s.name = 'ftrace2trace_recording'") id.fxt >fxtargs.csv 2>tp.err ||
	fail "trace_processor (FXT args): $(cat tp.err)"
if [ -n "${TTV_CHECK:-}" ] && [ -x "$TTV_CHECK" ]; then
	"$TTV_CHECK" id.json >ttv.out 2>&1 || fail "catapult's importer rejects the JSON: $(tail -3 ttv.out)"
	ok "catapult's importer loads the JSON"
else
	echo "note: TTV_CHECK not set: the JSON is not loaded by catapult's importer"
fi

python3 - "$before" "$after" "$(hostname)" "$(uname -r)" "$(uname -v)" "$(uname -m)" \
	"$(date +%z)" "$(getconf _NPROCESSORS_CONF)" <<'PY' || fail "see above"
import csv, json, re, sys

before, after = int(sys.argv[1]), int(sys.argv[2])
host, release, version, machine, tz, ncpus = sys.argv[3:9]
boot = open('/proc/sys/kernel/random/boot_id').read().strip()
model = next((l.split(':', 1)[1].strip() for l in open('/proc/cpuinfo')
              if l.startswith('model name')), None)
tz_min = (1 if tz[0] == '+' else -1) * (int(tz[1:3]) * 60 + int(tz[3:5]))
want = {'host': host, 'kernel': release, 'kernel_version': version, 'machine': machine,
        'boot_id': boot, 'ncpus': int(ncpus), 'tz_offset_min': tz_min, 'cmdline': 'sleep 0.05',
        'clock': 'mono'}
if model:
    want['cpu_model'] = model
bad = []

def need(cond, what):
    print(('ok: ' if cond else 'BAD: ') + what)
    if not cond:
        bad.append(what)

def same(where, got):
    diff = {k: (got.get(k), v) for k, v in want.items() if str(got.get(k)) != str(v)}
    need(not diff, f"{where}: {', '.join(sorted(want))} as the machine says" +
         (f"; differ (got, want): {diff}" if diff else ''))
    need(got.get('recorder', '').startswith('ftrace2trace ') and
         got.get('converter') == got.get('recorder'), f"{where}: recorder and converter")
    start = got.get('start_realtime_ns')
    need(start is not None and before <= int(start) <= after,
         f"{where}: the start, {got.get('start_time')}, is when record ran")

def rows(path):
    return {r[0]: r[1] for r in csv.reader(open(path)) if r}

pf = rows('pf.csv')
same('.pftrace metadata (cr-KEY)', {k[3:]: v for k, v in pf.items() if k.startswith('cr-')})
need((pf.get('system_release'), pf.get('system_version'), pf.get('system_machine'),
      pf.get('timezone_off_mins')) == (release, version, machine, str(tz_min)),
     '.pftrace SystemInfo: system_release, system_version, system_machine, timezone_off_mins')
fx = rows('fxt.csv')
same('.fxt metadata (its Perfetto blob)', {k[3:]: v for k, v in fx.items() if k.startswith('cr-')})
same('.fxt instant ftrace2trace_recording', rows('fxtargs.csv'))
same('JSON otherData', json.load(open('id.json'))['otherData'])
rep = json.load(open('report.json'))
same('report --json', rep['recording'])
r = next(csv.DictReader(open('report.csv')))
same('report --csv', r)
text = open('report.txt').read()
need(f'recorded on {host} (boot {boot}): Linux {release} ({version}) {machine}' in text
     and 'command: sleep 0.05' in text, "report's header")
old = json.load(open('old.json'))['recording']
need(old['boot_id'] == 'unknown' and old['kernel_version'] == 'unknown' and
     old['cpu_model'] == 'unknown' and old['tz_offset_min'] is None and old['host'] == 'vm',
     'a capture from before: what it does not hold is unknown, what it holds is there')
dat = json.load(open('dat.json'))['recording']
need((dat['host'], dat['kernel'], dat['machine'], dat['boot_id']) ==
     ('vm', '6.18.44-fc-v769', 'x86_64', 'unknown'),
     "a trace.dat: host, release and machine from its uname option ('Linux vm 6.18.44-fc-v769 x86_64')")
sys.exit(1 if bad else 0)
PY
ok "the identity in every output"
