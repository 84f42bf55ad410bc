// SPDX-License-Identifier: MIT
#include <stdio.h>
#include <unistd.h>

#include "record/progress.h"
#include "util/log.h"

#define REDRAW_NS 250000000ULL

void f2t_progress_init(struct f2t_progress *p)
{
	p->on = !f2t_quiet && isatty(STDERR_FILENO);
	p->hint = NULL;
	p->last_ns = 0;
	p->shown = false;
}

const char *f2t_human_bytes(uint64_t bytes, char *buf, int len)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
	double v = (double)bytes;
	int u = 0;

	while (v >= 1024 && u < 4) {
		v /= 1024;
		u++;
	}
	snprintf(buf, (size_t)len, u ? "%.1f %s" : "%.0f %s", v, unit[u]);
	return buf;
}

void f2t_progress_update(struct f2t_progress *p, uint64_t now_ns, double elapsed_s,
			 uint64_t bytes)
{
	char size[32];

	if (!p->on || (p->shown && now_ns - p->last_ns < REDRAW_NS))
		return;
	p->last_ns = now_ns;
	p->shown = true;
	fprintf(stderr, "\rftrace2trace: recording %.1f s, %s captured%s%s\033[K",
		elapsed_s, f2t_human_bytes(bytes, size, sizeof(size)),
		p->hint ? " " : "", p->hint ? p->hint : "");
	fflush(stderr);
}

void f2t_progress_clear(struct f2t_progress *p)
{
	if (!p->shown)
		return;
	fputs("\r\033[K", stderr);
	fflush(stderr);
	p->shown = false;
}
