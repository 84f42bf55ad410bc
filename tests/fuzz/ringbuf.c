// SPDX-License-Identifier: MIT
/*
 * Ring-buffer sub-buffers: fuzzed CPU_DATA decoded with the formats of a
 * fixed, valid capture (the kernel's header_page and the format files of
 * the sched, task, ftrace, irq and power events we decode, a task
 * snapshot, kernel symbols).  The input is cut into 4096-byte sub-buffers
 * (the last one zero-padded), which go to CPU 0 and CPU 1 in turn, so the
 * page decoder, the per-CPU merge, every event decoder and every output
 * see them.
 *
 * The fixed capture is opened and its formats parsed once per process
 * (f2t_capsrc_open_with()): parsing 25 format files was three quarters of
 * each input's time.  Each input gets a fresh task table, which the
 * pipeline updates as events pass; the formats and the recording's other
 * facts are only read.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture/capture.h"
#include "pipeline/convert.h"
#include "source/capsrc.h"
#include "source/input.h"
#include "fuzz.h"

#define SUBBUF 4096

static struct {
	struct f2t_input *base;		/* the fixed capture, as an input: its recording */
	struct f2t_capr *cap;		/* ... and as a capture: its formats */
	struct tep_handle *tep;
	bool tep_symbols;
	const struct f2t_cap_rec *tasks;
	struct f2t_convert_opts outputs;
} fx;

static void open_fixed_capture(void)
{
	struct fz_cap c = { 0 };
	const char *path;

	fz_init();
	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_HEADER_PAGE, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_EVENT_FORMAT, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_TASKS, -1, -1);
	fz_cap_add_base(&c, F2T_CAP_KALLSYMS, -1, -1);
	fz_cap_end(&c);
	path = fz_kept_file(c.b, c.len);
	free(c.b);
	fx.base = f2t_input_open(path);
	fx.cap = f2t_capr_open(path);
	fx.tep = fx.cap ? f2t_capsrc_formats(fx.cap) : NULL;
	fx.tasks = fx.cap ? f2t_capr_find(fx.cap, F2T_CAP_TASKS, 0) : NULL;
	if (!fx.base || !fx.tep || !fx.tasks)
		abort();
	fz_convert_opts(&fx.outputs);
}

static void convert_pages(const char *path)
{
	struct f2t_capr *cap = f2t_capr_open(path);
	struct f2t_input in = { .rec = fx.base->rec, .kind = "fuzzed capture" };
	int line;

	if (!cap)
		return;
	in.rec.path = path;
	in.rec.tasks = f2t_tasks_new();
	in.rec.tasks_end = f2t_tasks_new();
	if (!in.rec.tasks || !in.rec.tasks_end ||
	    f2t_tasks_load_snapshot(in.rec.tasks, fx.tasks->data, fx.tasks->len, &line) < 0)
		abort();
	in.events = f2t_capsrc_open_with(cap, &in.rec, fx.tep, &fx.tep_symbols);
	if (in.events) {
		f2t_convert_input(&in, &fx.outputs, NULL);
		f2t_source_close(in.events);
	}
	f2t_tasks_free(in.rec.tasks);
	f2t_tasks_free(in.rec.tasks_end);
	f2t_capr_close(cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;
	static unsigned char page[SUBBUF];

	if (!fx.base)
		open_fixed_capture();
	fz_cap_begin(&c);
	fz_cap_add_base(&c, F2T_CAP_META, -1, -1);
	for (size_t off = 0, k = 0; off < size; off += SUBBUF, k++) {
		size_t n = size - off < SUBBUF ? size - off : SUBBUF;

		memset(page, 0, sizeof(page));
		memcpy(page, data + off, n);
		fz_cap_add(&c, F2T_CAP_CPU_DATA, (uint32_t)(k & 1), page, SUBBUF);
	}
	fz_cap_end(&c);
	convert_pages(fz_cap_file(c.b, c.len));
	return 0;
}
