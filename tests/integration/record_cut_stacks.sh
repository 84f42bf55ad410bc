#!/usr/bin/env bash
# Samples that say when their stacks are cut (root): a -O2 program built
# without frame pointers (tests/helpers/burn_nofp) sampled with the default
# frame-pointer walk has one or two user frames a sample, and both the
# recording's summary and `convert`'s say so in one line that suggests
# --call-graph dwarf; the same program with frame pointers (burn), or
# unwound with --call-graph dwarf, gets no such line.
set -u
. "$F2T_TESTS/helpers/record-common.bash"
need_root
for h in burn burn_nofp; do
	[ -x "$B/tests/helpers/$h" ] || skip "$B/tests/helpers/$h not built (make tests)"
done
cd "$TMP" || exit 1
hint='have at most two user frames: .*--call-graph dwarf'

"$F2T" record -k nofp.cap -o nofp.json -- "$B/tests/helpers/burn_nofp" 1 >out 2>err ||
	fail "record burn_nofp: $(cat err)"
grep -q "CPU samples (cpu-clock" err || skip "no CPU sampling here: $(grep -i sampl err | head -2)"
grep -q "$hint" err || fail "no line about cut stacks after recording burn_nofp: $(grep 'CPU samples' err)"
"$F2T" convert nofp.cap -o again.json >cout 2>cerr || fail "convert: $(cat cerr)"
grep -q "$hint" cerr || fail "convert's summary has no line about cut stacks: $(grep 'CPU samples' cerr)"
ok "burn_nofp: $(grep -o '[0-9]* of [0-9]* CPU samples ([0-9]*%)' err) cut short, said after record and convert"

"$F2T" record -o fp.json -- "$B/tests/helpers/burn" 1 >out 2>err || fail "record burn: $(cat err)"
grep -q "$hint" err && fail "burn has frame pointers, yet: $(grep 'user frames' err)"
ok "burn (frame pointers, $(grep -o "[0-9.]* a sample" err | head -1)): no line about cut stacks"

"$F2T" record --call-graph dwarf -o dwarf.json -- "$B/tests/helpers/burn_nofp" 1 >out 2>err ||
	fail "record --call-graph dwarf: $(cat err)"
grep -q "$hint" err && fail "--call-graph dwarf unwinds burn_nofp, yet: $(grep 'user frames' err)"
ok "burn_nofp with --call-graph dwarf: no line about cut stacks"
exit 0
