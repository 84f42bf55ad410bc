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
#include "source/capture/capsrc.h"
#include "source/input.h"
#include "fuzz.h"

#define SUBBUF 4096

static struct fz_fixed fx;
static struct f2t_convert_opts outputs;

static void convert_pages(const char *path)
{
	struct f2t_input in;
	struct f2t_capr *cap = fz_fixed_input(&fx, path, &in, NULL);

	if (in.events)
		f2t_convert_input(&in, &outputs, NULL);
	fz_fixed_close(&in, cap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fz_cap c;
	static unsigned char page[SUBBUF];

	if (!fx.base) {
		fz_fixed_open(&fx, true);
		fz_convert_opts(&outputs);
	}
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
