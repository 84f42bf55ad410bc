#!/usr/bin/env bash
# The test helpers must be able to fail: is_fxt (tests/helpers/record-common.bash)
# accepts a whole FXT file and rejects files that `ftrace2trace dump` rejects,
# even when they start with the FXT magic record.  No root needed.
set -u
: "${F2T:?F2T must point at the ftrace2trace binary}"
: "${B:?B must point at the build directory}"
. "$F2T_TESTS/helpers/record-common.bash"

fixture=$F2T_TESTS/fixtures/sched-tcp.cap
"$F2T" convert -q "$fixture" -o "$TMP/good.fxt" || fail "cannot convert $fixture"
is_fxt "$TMP/good.fxt" || fail "is_fxt rejects a whole FXT file"
ok "is_fxt accepts $(stat -c %s "$TMP/good.fxt") bytes of FXT"

# The magic record, then a header word claiming a record far past the end.
head -c 8 "$TMP/good.fxt" >"$TMP/magic-garbage.fxt"
printf '\377\377\377\377\377\377\377\377' >>"$TMP/magic-garbage.fxt"
# Cut inside a record.
head -c 1001 "$TMP/good.fxt" >"$TMP/cut.fxt"
# The second record's header says it has no words.
cp "$TMP/good.fxt" "$TMP/zero-size.fxt"
printf '\001\000\000\000\000\000\000\000' |
	dd of="$TMP/zero-size.fxt" bs=1 seek=8 conv=notrunc 2>/dev/null
: >"$TMP/empty.fxt"
for bad in magic-garbage cut zero-size empty; do
	"$F2T" dump --stats "$TMP/$bad.fxt" >/dev/null 2>&1 &&
		fail "dump accepts $bad.fxt: the corruption did not work"
	is_fxt "$TMP/$bad.fxt" && fail "is_fxt accepts $bad.fxt, which dump rejects"
	ok "is_fxt rejects $bad.fxt"
done
exit 0
