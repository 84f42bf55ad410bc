// SPDX-License-Identifier: MIT
/*
 * The merge from start to end: scan every input, decide the offsets and
 * which clock_sync events stay, then write the output section by section
 * into a temporary file that takes the output's name only when complete.
 *
 * Output layout: traceEvents (every input's, in input order), then
 * systemTraceEvents, samples, stackFrames, displayTimeUnit, otherData,
 * metadata, then any other top-level member (the first input's wins).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "merge/align.h"
#include "merge/copy.h"
#include "merge/input.h"
#include "merge/merge.h"
#include "util/strset.h"
#include "util/log.h"
#include "json/json_fmt.h"

/* Name of the member merge adds to otherData about itself. */
#define PROVENANCE_KEY "ftrace2trace_merge"

static int assign_offsets(struct f2t_minput *ins, size_t n, const struct f2t_merge_opts *o)
{
	for (size_t k = 0; k < o->noffsets; k++) {
		bool found = false;

		for (size_t i = 0; i < n; i++) {
			if (strcmp(ins[i].path, o->offsets[k].input))
				continue;
			ins[i].offset_given = true;
			ins[i].offset_ns = o->offsets[k].ns;
			found = true;
		}
		if (!found) {
			f2t_err("--offset %s: not one of the inputs", o->offsets[k].input);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The ftrace text in systemTraceEvents has its own timestamps, in seconds,
 * inside one long string; merge does not rewrite them.  So it may come from
 * one input only, one whose clock is not moved.
 */
static int check_system_text(const struct f2t_minput *ins, size_t n)
{
	size_t holder = n;

	for (size_t i = 0; i < n; i++) {
		if (!ins[i].has[F2T_MS_SYSTEM])
			continue;
		if (holder < n) {
			f2t_err("%s and %s both hold systemTraceEvents (ftrace text); "
				"a merged trace can carry only one", ins[holder].path, ins[i].path);
			return -EINVAL;
		}
		holder = i;
	}
	if (holder < n && ins[holder].offset_ns) {
		f2t_err("%s: its systemTraceEvents (ftrace text) cannot be shifted; "
			"give it as the first input, so that its clock is the reference",
			ins[holder].path);
		return -EINVAL;
	}
	return 0;
}

/* Frame ids are renamed only when two inputs could collide. */
static void decide_frames(struct f2t_minput *ins, size_t n)
{
	size_t with = 0;

	for (size_t i = 0; i < n; i++)
		with += ins[i].has[F2T_MS_FRAMES];
	for (size_t i = 0; i < n; i++)
		ins[i].rename_frames = with > 1;
}

/* "+1000.000000000" */
static void fmt_seconds(char *buf, size_t len, int64_t ns)
{
	uint64_t u = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;

	snprintf(buf, len, "%c%" PRIu64 ".%09" PRIu64, ns < 0 ? '-' : '+',
		 u / 1000000000u, u % 1000000000u);
}

static const char *how_name(enum f2t_mhow how)
{
	switch (how) {
	case F2T_MH_REFERENCE:
		return "reference";
	case F2T_MH_GIVEN:
		return "--offset";
	case F2T_MH_SYNC:
		return "clock_sync";
	case F2T_MH_NOTHING:
		break;
	}
	return "none";
}

static void put_i64(struct f2t_out *out, int64_t v)
{
	char buf[F2T_JSON_NUM_MAX];

	f2t_out_write(out, buf, f2t_json_i64(buf, v));
}

/* What merge did, as an otherData member, so the file tells its own story. */
static void write_provenance(struct f2t_out *out, const struct f2t_minput *ins, size_t n)
{
	f2t_out_puts(out, "\n\"" PROVENANCE_KEY "\":{\"version\":\"ftrace2trace " F2T_VERSION
			  "\",\"reference\":");
	f2t_json_put_string(out, ins[0].path, strlen(ins[0].path));
	f2t_out_puts(out, ",\"inputs\":[");
	for (size_t i = 0; i < n; i++) {
		const struct f2t_minput *in = &ins[i];

		f2t_out_puts(out, i ? ",{\"file\":" : "{\"file\":");
		f2t_json_put_string(out, in->path, strlen(in->path));
		f2t_out_puts(out, ",\"offset_ns\":");
		put_i64(out, in->offset_ns);
		f2t_out_puts(out, ",\"aligned_by\":\"");
		f2t_out_puts(out, how_name(in->how));
		f2t_out_putc(out, '"');
		if (in->how == F2T_MH_SYNC) {
			f2t_out_puts(out, ",\"matched_with\":");
			f2t_json_put_string(out, ins[in->via].path, strlen(ins[in->via].path));
			f2t_out_puts(out, ",\"sync_ids\":");
			put_i64(out, (int64_t)in->pairs);
			f2t_out_puts(out, ",\"spread_ns\":");
			put_i64(out, in->spread_ns);
		}
		f2t_out_puts(out, ",\"events\":");
		put_i64(out, (int64_t)in->copied);
		f2t_out_puts(out, ",\"dropped_clock_syncs\":");
		put_i64(out, (int64_t)in->dropped_syncs);
		f2t_out_putc(out, '}');
	}
	f2t_out_puts(out, "]}");
}

/* otherData or metadata: every input's members in one object. */
static int write_merged_object(struct f2t_out *out, struct f2t_minput *ins, size_t n,
			       enum f2t_msect sect)
{
	struct f2t_strset seen = { 0 };
	bool first = true, any = sect == F2T_MS_OTHER;
	int err = 0;

	for (size_t i = 0; i < n; i++)
		any |= ins[i].has[sect];
	if (!any)
		return 0;
	f2t_out_puts(out, ",\n\"");
	f2t_out_puts(out, f2t_msect_names[sect]);
	f2t_out_puts(out, "\":{");
	if (sect == F2T_MS_OTHER) {
		/* Ours first, so an input's own (from an earlier merge) is renamed. */
		write_provenance(out, ins, n);
		first = false;
		if (f2t_strset_add(&seen, PROVENANCE_KEY, strlen(PROVENANCE_KEY)) < 0) {
			err = -ENOMEM;
			goto out;
		}
	}
	for (size_t i = 0; i < n && !err; i++)
		if (ins[i].has[sect])
			err = f2t_mcopy_members(out, &ins[i], sect, &seen, &first);
	f2t_out_puts(out, "\n}");
out:
	f2t_strset_fini(&seen);
	return err;
}

/* Any other top-level member: the first input's, later ones dropped (warned). */
static int write_extras(struct f2t_out *out, struct f2t_minput *ins, size_t n)
{
	struct f2t_strset seen = { 0 };
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		for (size_t k = 0; k < ins[i].nextra && !err; k++) {
			const char *key = ins[i].extra[k].key;
			int r = f2t_strset_add(&seen, key, strlen(key));

			if (r < 0) {
				err = r;
			} else if (r == 0) {
				f2t_warn("%s: top-level \"%s\" is also in an earlier input; "
					 "the earlier one is kept", ins[i].path, key);
			} else {
				f2t_out_puts(out, ",\n");
				f2t_json_put_string(out, key, strlen(key));
				f2t_out_putc(out, ':');
				err = f2t_mcopy_value(out, &ins[i], &ins[i].extra[k].at);
			}
		}
	}
	f2t_strset_fini(&seen);
	return err;
}

/* An array section gathered from every input that has it. */
static int write_array(struct f2t_out *out, struct f2t_minput *ins, size_t n,
		       enum f2t_msect sect, bool always)
{
	bool first = true, any = always;
	int err = 0;

	for (size_t i = 0; i < n; i++)
		any |= ins[i].has[sect];
	if (!any)
		return 0;
	f2t_out_puts(out, sect == F2T_MS_EVENTS ? "\"" : ",\n\"");
	f2t_out_puts(out, f2t_msect_names[sect]);
	f2t_out_puts(out, "\":[");
	for (size_t i = 0; i < n && !err; i++) {
		if (!ins[i].has[sect])
			continue;
		err = sect == F2T_MS_EVENTS ? f2t_mcopy_events(out, &ins[i], &first) :
					      f2t_mcopy_samples(out, &ins[i], &first);
	}
	f2t_out_puts(out, "\n]");
	return err;
}

static int write_output(struct f2t_out *out, struct f2t_minput *ins, size_t n)
{
	bool first = true, any = false;
	int err;

	f2t_out_putc(out, '{');
	/* traceEvents is required, even if empty. */
	err = write_array(out, ins, n, F2T_MS_EVENTS, true);
	for (size_t i = 0; i < n && !err; i++) {
		if (!ins[i].has[F2T_MS_SYSTEM])
			continue;
		f2t_out_puts(out, ",\n\"systemTraceEvents\":");
		err = f2t_mcopy_value(out, &ins[i], &ins[i].at[F2T_MS_SYSTEM]);
	}
	if (!err)
		err = write_array(out, ins, n, F2T_MS_SAMPLES, false);
	for (size_t i = 0; i < n; i++)
		any |= ins[i].has[F2T_MS_FRAMES];
	if (!err && any) {
		f2t_out_puts(out, ",\n\"stackFrames\":{");
		for (size_t i = 0; i < n && !err; i++)
			if (ins[i].has[F2T_MS_FRAMES])
				err = f2t_mcopy_frames(out, &ins[i], &first);
		f2t_out_puts(out, "\n}");
	}
	/* One display unit: the first input that names one. */
	for (size_t i = 0; i < n && !err; i++) {
		if (!ins[i].has[F2T_MS_DTU])
			continue;
		f2t_out_puts(out, ",\n\"displayTimeUnit\":");
		err = f2t_mcopy_value(out, &ins[i], &ins[i].at[F2T_MS_DTU]);
		break;
	}
	if (!err)
		err = write_merged_object(out, ins, n, F2T_MS_OTHER);
	if (!err)
		err = write_merged_object(out, ins, n, F2T_MS_META);
	if (!err)
		err = write_extras(out, ins, n);
	f2t_out_puts(out, "\n}\n");
	return err;
}

static void summarize(const struct f2t_minput *ins, size_t n, const char *output)
{
	uint64_t events = 0;

	for (size_t i = 0; i < n; i++) {
		const struct f2t_minput *in = &ins[i];
		char secs[32], extra[96] = "";

		events += in->copied;
		if (in->dropped_syncs)
			snprintf(extra, sizeof(extra), "; %" PRIu64 " duplicate clock_sync event%s "
				 "left out", in->dropped_syncs, in->dropped_syncs == 1 ? "" : "s");
		fmt_seconds(secs, sizeof(secs), in->offset_ns);
		switch (in->how) {
		case F2T_MH_REFERENCE:
			fprintf(stderr, "ftrace2trace: %s: the reference clock%s\n", in->path, extra);
			break;
		case F2T_MH_GIVEN:
			fprintf(stderr, "ftrace2trace: %s: shifted by %s s (--offset)%s\n",
				in->path, secs, extra);
			break;
		case F2T_MH_SYNC:
			fprintf(stderr, "ftrace2trace: %s: shifted by %s s, from %zu clock_sync "
				"id%s shared with %s (spread %.3f us)%s\n", in->path, secs, in->pairs,
				in->pairs == 1 ? "" : "s", ins[in->via].path,
				(double)in->spread_ns / 1000.0, extra);
			break;
		case F2T_MH_NOTHING:
			fprintf(stderr, "ftrace2trace: %s: nothing with a timestamp; copied as is%s\n",
				in->path, extra);
			break;
		}
	}
	fprintf(stderr, "ftrace2trace: wrote %s: %" PRIu64 " events from %zu input%s\n",
		output, events, n, n == 1 ? "" : "s");
}

int f2t_merge(const struct f2t_merge_opts *o)
{
	struct f2t_minput *ins = calloc(o->ninputs ? o->ninputs : 1, sizeof(*ins));
	struct f2t_out *out;
	size_t n = o->ninputs;
	int err;

	if (!ins)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		ins[i].path = o->inputs[i];
		ins[i].file = o->files && o->files[i] ? o->files[i] : o->inputs[i];
		ins[i].num = i + 1;
	}
	err = assign_offsets(ins, n, o);
	for (size_t i = 0; i < n && !err; i++)
		err = f2t_minput_scan(&ins[i]);
	if (!err)
		err = f2t_merge_align(ins, n);
	if (!err)
		err = check_system_text(ins, n);
	if (!err)
		err = f2t_merge_pick_syncs(ins, n);
	if (err)
		goto out;
	decide_frames(ins, n);

	out = f2t_out_open(o->output);
	if (!out) {
		err = -errno;
		f2t_err("cannot write %s: %s", o->output, strerror(errno));
		goto out;
	}
	err = write_output(out, ins, n);
	if (err) {
		f2t_out_abort(out);
	} else {
		err = f2t_out_close(out);
		if (err)
			f2t_err("%s: %s", strcmp(o->output, "-") ? o->output : "standard output",
				strerror(-err));
	}
	out = NULL;
	if (!err && !o->quiet)
		summarize(ins, n, o->output);
	for (size_t i = 0; i < n && !err; i++)
		if (ins[i].unshifted)
			f2t_warn("%s: %" PRIu64 " \"ts\" values are not numbers; left as they were",
				 ins[i].path, ins[i].unshifted);
out:
	for (size_t i = 0; i < n; i++)
		f2t_minput_fini(&ins[i]);
	free(ins);
	return err;
}
