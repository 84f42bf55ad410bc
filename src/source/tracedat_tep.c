// SPDX-License-Identifier: MIT
/*
 * libtraceevent's view of a trace.dat, made from what our layout walk kept
 * (tracedat_check.c) rather than by libtracecmd's open, whose cost on a
 * small file was most of the conversion: it parses the saved kallsyms
 * (hundreds of thousands of lines through sscanf) whether any event needs
 * them or not.  Here the kallsyms and printk formats go to the recording
 * and are read on first use (rawdec_ksyms.c), as a capture's are.  The
 * rest is handed over as libtracecmd does (trace-input.c in trace-cmd):
 * the header page with the kernel's long size, every format with its
 * system, a format it cannot parse only counted, and the saved cmdlines.
 */
#include <errno.h>

#include <traceevent/event-parse.h>

#include "source/tracedat.h"
#include "util/log.h"

struct tep_handle *f2t_tracedat_tep(const char *path, const struct f2t_tracedat_layout *lay)
{
	const struct f2t_tracedat_meta *m = &lay->meta;
	struct tep_handle *tep = tep_alloc();
	size_t failed = 0;
	int ret = 0;

	if (!tep) {
		ret = -ENOMEM;
		goto out;
	}
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, lay->long8 ? 8 : 4);
	tep_set_page_size(tep, (int)lay->page);
	tep_set_cpus(tep, (int)m->ncpus);
	/* The walk parsed it already (it refuses a file without one). */
	if (!m->header_page ||
	    tep_parse_header_page(tep, m->header_page, m->header_page_len, lay->long8 ? 8 : 4) < 0) {
		f2t_err("%s: no ring-buffer page description libtraceevent reads", path);
		ret = -EINVAL;
		goto out;
	}
	for (size_t i = 0; i < m->nformats; i++)
		if (tep_parse_event(tep, m->formats[i].text, m->formats[i].len, m->formats[i].system))
			failed++;
	if (failed)
		f2t_info("%s: %zu event formats libtraceevent cannot parse: their events are unknown",
			 path, failed);
	/* It stops at a line it cannot read; libtracecmd says nothing of it. */
	if (m->cmdlines && tep_parse_saved_cmdlines(tep, m->cmdlines) < 0)
		f2t_warn("%s: the saved cmdlines: a line libtraceevent cannot read; tasks listed after it have no names",
			 path);
out:
	if (ret) {
		tep_free(tep);
		errno = -ret;
		return NULL;
	}
	return tep;
}
