// SPDX-License-Identifier: MIT
/*
 * libtraceevent's view of a trace.dat, made from what our layout walk kept
 * (tracedat_layout.c) rather than by libtracecmd's open, whose cost on a
 * small file was most of the conversion: it parses the saved kallsyms
 * (hundreds of thousands of lines through sscanf) whether any event needs
 * them or not.  Here the kallsyms and printk formats go to the recording
 * and are read on first use (rawdec_ksyms.c), as a capture's are.  The
 * rest is handed over as libtracecmd does (trace-input.c in trace-cmd):
 * the header page with the kernel's long size, every format with its
 * system, a format it cannot parse only counted, and the saved cmdlines.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>
#include <zstd.h>

#include "source/tracedat/tracedat.h"
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

/* N bytes at OFF of FD into a new buffer (one byte more, zeroed); NULL if short. */
static char *read_at(int fd, uint64_t off, size_t n)
{
	char *buf = malloc(n + 1);

	if (buf && pread(fd, buf, n, (off_t)off) != (ssize_t)n) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[n] = '\0';
	return buf;
}

/* The kallsyms section's body (a size, the text) inflated: its bytes and *LEN, or NULL. */
static char *inflate_section(int fd, uint64_t off, size_t *len)
{
	uint32_t sizes[2];
	char *packed = NULL, *body = NULL;
	struct stat st;

	if (fstat(fd, &st) || pread(fd, sizes, sizeof(sizes), (off_t)off) != (ssize_t)sizeof(sizes))
		return NULL;
	sizes[0] = le32toh(sizes[0]);
	sizes[1] = le32toh(sizes[1]);
	/* As the walk bounds every section it inflates. */
	if (sizes[1] > (64u << 20) || sizes[0] > (uint64_t)st.st_size)
		return NULL;
	packed = read_at(fd, off + 8, sizes[0]);
	body = packed ? malloc((size_t)sizes[1] + 1) : NULL;
	if (body && ZSTD_decompress(body, sizes[1], packed, sizes[0]) != sizes[1]) {
		free(body);
		body = NULL;
	}
	free(packed);
	*len = sizes[1];
	return body;
}

char *f2t_tracedat_kallsyms(const char *path, int fd, const struct f2t_tracedat_layout *lay,
			    size_t *len)
{
	uint64_t off = lay->meta.kallsyms_at.off;
	char *body = NULL, *text = NULL;
	uint32_t n = 0;
	size_t blen = 0;

	if (!lay->meta.kallsyms_at.present)
		return NULL;
	if (lay->meta.kallsyms_at.compressed) {
		body = inflate_section(fd, off, &blen);
		if (body && blen >= 4) {
			memcpy(&n, body, 4);
			n = le32toh(n);
			if (n <= blen - 4) {
				text = body;
				memmove(text, body + 4, n);
				text[n] = '\0';
				body = NULL;
			}
		}
	} else if (pread(fd, &n, 4, (off_t)off) == 4) {
		n = le32toh(n);
		text = read_at(fd, off + 4, n);
	}
	free(body);
	if (!text)
		f2t_warn("%s: offset %llu: kallsyms that cannot be read (a truncated or corrupt trace.dat): functions are named by address",
			 path, (unsigned long long)off);
	*len = n;
	return text;
}
