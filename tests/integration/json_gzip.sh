#!/usr/bin/env bash
# -o trace.json.gz: the JSON, gzip-compressed.  gzip itself must read back
# exactly the bytes of the .json written by the same conversion, and, where
# installed, both viewers' importers must open the compressed file as they
# open the plain one: Perfetto's trace processor (TRACE_PROCESSOR or PATH)
# and catapult's Trace Viewer importer (TTV_CHECK or PATH).
set -u
: "${F2T:?}"
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
command -v gzip >/dev/null || skip "gzip not installed"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/f2t-test.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT

"$F2T" convert -q "$F2T_TESTS/fixtures/sched-tcp.cap" -o "$TMP/t.json.gz" -o "$TMP/t.json" ||
	fail "convert failed"
gzip -t "$TMP/t.json.gz" || fail "not a valid gzip file"
gzip -dc "$TMP/t.json.gz" | cmp -s - "$TMP/t.json" || fail "decompressed, it differs from the .json"
[ "$(stat -c %s "$TMP/t.json.gz")" -lt "$(( $(stat -c %s "$TMP/t.json") / 3 ))" ] ||
	fail "compressed to more than a third"
ok "the .json.gz decompresses to the .json of the same conversion"
"$F2T" convert -q --format json.gz "$F2T_TESTS/fixtures/sched-tcp.cap" -o "$TMP/named" ||
	fail "--format json.gz refused"
gzip -dc "$TMP/named" | cmp -s - "$TMP/t.json" || fail "--format json.gz wrote something else"
ok "--format json.gz"

checked=0
TP=${TRACE_PROCESSOR:-$(command -v trace_processor_shell)}
if [ -n "$TP" ] && [ -x "$TP" ]; then
	q='select count(*) from sched; select count(*) from thread where name is not null;'
	for f in t.json t.json.gz; do
		"$TP" -q <(echo "$q") "$TMP/$f" 2>/dev/null | grep -v '^"' >"$TMP/$f.tp" ||
			fail "trace processor could not load $f"
	done
	cmp -s "$TMP/t.json.tp" "$TMP/t.json.gz.tp" ||
		fail "trace processor reads the .json.gz otherwise: $(paste "$TMP/t.json.tp" "$TMP/t.json.gz.tp")"
	[ "$(head -1 "$TMP/t.json.tp")" -gt 0 ] || fail "no sched slices from the .json"
	ok "trace processor: $(head -1 "$TMP/t.json.tp") sched slices, $(tail -1 "$TMP/t.json.tp") named threads from each"
	checked=$((checked + 1))
else
	echo "no trace processor (TRACE_PROCESSOR or trace_processor_shell on PATH): not checked"
fi
TTV=${TTV_CHECK:-$(command -v ttv-check)}
if [ -n "$TTV" ] && [ -x "$TTV" ]; then
	for f in t.json t.json.gz; do
		"$TTV" "$TMP/$f" >"$TMP/$f.ttv" 2>&1 || fail "Trace Viewer could not import $f: $(cut -c1-300 "$TMP/$f.ttv")"
		grep -o '"counts":{[^}]*}' "$TMP/$f.ttv" >"$TMP/$f.counts"
	done
	cmp -s "$TMP/t.json.counts" "$TMP/t.json.gz.counts" || fail "Trace Viewer reads the .json.gz otherwise"
	ok "Trace Viewer imports both alike: $(cat "$TMP/t.json.gz.counts")"
	checked=$((checked + 1))
else
	echo "no Trace Viewer importer (TTV_CHECK or ttv-check on PATH): not checked"
fi
[ "$checked" -gt 0 ] || echo "the file is right for gzip; no viewer importer here to open it with"
exit 0
