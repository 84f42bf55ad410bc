#!/usr/bin/env bash
# As root: `record -e irq -e power:cpu_idle` on a workload that sleeps and
# writes to disk.  The FXT file must hold irq/softirq slices (duration
# begin/end) on the per-CPU pseudo threads "irq cpuN" of the pseudo process
# "CPUs", and cpu_idle counter events; the JSON file B/E events on those
# pseudo threads and C events for cpu_idle, with the irq and idle lines left
# out of its ftrace text (json_writer.c says why), and every other check of
# check_json_trace.py; the ftrace text output keeps them, as the kernel
# prints them.  Both files must parse (dump, python3 json).
set -u
here=$(cd "$(dirname "$0")" && pwd)
. "$F2T_TESTS/helpers/record-common.bash"
need_root
command -v python3 >/dev/null || skip "python3 is not installed"

rec "$TMP/err" -q -e irq -e power:cpu_idle -o "$TMP/x.fxt" -o "$TMP/x.json" -o "$TMP/x.txt" -- \
	sh -c "for i in 1 2 3 4 5; do dd if=/dev/zero of='$TMP/io' bs=64k count=16 conv=fsync 2>/dev/null; sleep 0.02; done"
[ "$RC" -eq 0 ] || fail "record exited $RC: $(cat "$TMP/err")"

# Pseudo ids (src/model/pseudo.h): process 0x7fff0000, "irq cpuN" 0x7fff1000 + N.
"$F2T" dump "$TMP/x.fxt" > "$TMP/dump" || fail "dump cannot read the FXT file"
pseudo='thread=2147418112/21474222[0-9][0-9]'
begins=$(grep -c " duration_begin .*$pseudo.* category=\"irq\"" "$TMP/dump")
ends=$(grep -c " duration_end .*$pseudo.* category=\"irq\"" "$TMP/dump")
idle=$(grep -c ' counter .*thread=2147418112/2147418112.* name="cpu_idle" ' "$TMP/dump")
grep -q ' kernel_object type=process(1) koid=2147418112 name="CPUs"' "$TMP/dump" ||
	fail "FXT: no process record naming the pseudo process CPUs"
grep -q ' kernel_object type=thread(2) koid=21474222[0-9][0-9] name="irq cpu[0-9]*"' "$TMP/dump" ||
	fail "FXT: no thread record naming an irq cpuN pseudo thread"
echo "FXT: $begins irq slices begun, $ends ended on irq cpuN threads; $idle cpu_idle counter events"
[ "$begins" -gt 0 ] || fail "FXT: no irq slice"
[ "$ends" -gt 0 ] && [ "$ends" -le "$begins" ] || fail "FXT: $ends slice ends for $begins begins"
# Some kernels emit cpu_idle only at times, from some CPUs (no cpuidle
# driver): the kernel's own text of the same recording says how many came.
idle_txt=$(grep -c ': cpu_idle: state=' "$TMP/x.txt")
[ "$idle" -eq "$idle_txt" ] || fail "FXT: $idle cpu_idle counter events for $idle_txt cpu_idle lines"
[ "$idle_txt" -gt 0 ] || echo "note: the kernel emitted no cpu_idle event during this run"
ok "FXT has irq slices on the CPUs pseudo process and a counter event per cpu_idle"

grep -q ': irq_handler_entry: irq=' "$TMP/x.txt" ||
	fail "the ftrace text output lacks the kernel's irq_handler_entry lines"
python3 "$here/check_json_trace.py" "$TMP/x.json" --systrace "$TMP/x.txt" > "$TMP/check" || { cat "$TMP/check"; fail "JSON checks"; }
python3 - "$TMP/x.json" "$idle_txt" <<'PY' || fail "JSON: irq slices or idle counters missing"
import json, sys
doc = json.load(open(sys.argv[1]))
ev, text, other = doc['traceEvents'], doc['systemTraceEvents'], doc['otherData']
PID = 0x7fff0000
irq_tids = {0x7fff1000 + c for c in range(1024)}
b = [e for e in ev if e['ph'] == 'B' and e['pid'] == PID and e['tid'] in irq_tids]
e_ = [e for e in ev if e['ph'] == 'E' and e['pid'] == PID and e['tid'] in irq_tids]
c = [e for e in ev if e['ph'] == 'C' and e['name'] == 'cpu_idle' and e['pid'] == PID]
names = {(m['tid'], m['args']['name']) for m in ev if m['ph'] == 'M' and m['pid'] == PID}
print(f'JSON: {len(b)} B and {len(e_)} E on irq cpuN, {len(c)} cpu_idle C events, '
      f'{other["kernel_lines_not_in_text"]} lines kept out of the text, names {sorted(names)}')
ok = True
def need(cond, what):
    global ok
    if not cond:
        print('FAIL ' + what)
        ok = False
need(b and e_ and len(e_) <= len(b), 'B/E on the irq pseudo threads')
need(all(x['name'].startswith(('IRQ (', 'SOFTIRQ (')) for x in b), 'irq slices named IRQ (...) / SOFTIRQ (...)')
need(len(c) == int(sys.argv[2]) and
     all(len(x['args']) == 1 and list(x['args'])[0].startswith('cpu') for x in c),
     'a cpu_idle C event with one cpuN series for each cpu_idle line of the text')
need((PID, 'CPUs') in names and any(n.startswith('irq cpu') for _, n in names),
     'process_name CPUs and thread_name irq cpuN')
need(' irq_handler_entry: ' not in text and ' softirq_entry: ' not in text and ' cpu_idle: ' not in text,
     'no irq or idle line in systemTraceEvents (Trace Viewer would draw them twice)')
need(other['kernel_lines_not_in_text'] >= len(b) + len(c), 'otherData counts the lines left out')
sys.exit(0 if ok else 1)
PY
ok "JSON has B/E on the irq pseudo threads and C events for idle"

# Trace Viewer too, when its importers are here (TTV_CHECK, or ttv-check on PATH).
ttv=${TTV_CHECK:-$(command -v ttv-check)}
if [ -n "$ttv" ] && [ -x "$ttv" ] && command -v node >/dev/null; then
	"$ttv" "$TMP/x.json" > "$TMP/ttv" 2>&1 || fail "Trace Viewer cannot import the JSON: $(tail -c 600 "$TMP/ttv")"
	ok "Trace Viewer imports it"
else
	echo "note: no Trace Viewer importer (TTV_CHECK) to try the JSON with"
fi
exit 0
