// SPDX-License-Identifier: MIT
/* Print events: as they are, or as the model's items (pf_print.h). */
#include <stdio.h>
#include <string.h>

#include "model/marker.h"
#include "perfetto/pf_print.h"

/* Would trace_processor read @m as the model does? */
static bool agrees(const struct f2t_marker *m)
{
	switch (m->kind) {
	case F2T_MARKER_BEGIN:
		return m->name.len && !m->args.len;
	case F2T_MARKER_COUNTER:
		return m->name.len && !m->value_is_double;
	case F2T_MARKER_ASYNC_BEGIN:
	case F2T_MARKER_ASYNC_END:
	case F2T_MARKER_INSTANT:
		return m->name.len;
	case F2T_MARKER_TRACK_INSTANT:
	case F2T_MARKER_TRACK_BEGIN:
		return m->track.len && m->name.len;
	case F2T_MARKER_TRACK_END:
		return m->track.len;
	case F2T_MARKER_END:
	case F2T_MARKER_CLOCK_SYNC:
		return true;
	default:	/* text */
		return false;
	}
}

/* @buf with the pid field after "X|" replaced by @tgid, when it differs. */
static size_t with_pid(const char *buf, size_t len, const struct f2t_marker *m, int32_t tgid,
		       char *text)
{
	const char *pid_end;
	int n;

	if (m->pid < 0 || m->pid == tgid || len < 2) {
		memcpy(text, buf, len);
		return len;
	}
	pid_end = memchr(buf + 2, '|', len - 2);
	if (!pid_end)
		pid_end = buf + len;
	n = snprintf(text, PF_PRINT_EXTRA, "%c|%d", buf[0], tgid);
	memcpy(text + n, pid_end, (size_t)(buf + len - pid_end));
	return (size_t)n + (size_t)(buf + len - pid_end);
}

enum pf_print_path pf_print_path(const char *buf, size_t len, int32_t tgid, char *text,
				 size_t *text_len)
{
	const char *nul = memchr(buf, '\0', len);
	struct f2t_marker m;

	/* The kernel's own text, and the model, stop at a NUL. */
	if (nul)
		len = (size_t)(nul - buf);
	f2t_marker_parse(buf, len, &m);
	*text_len = 0;
	if (!agrees(&m))
		return PF_PRINT_ITEMS;
	*text_len = with_pid(buf, len, &m, tgid, text);
	switch (m.kind) {
	case F2T_MARKER_END:
	case F2T_MARKER_ASYNC_END:
	case F2T_MARKER_TRACK_END:
		return PF_PRINT_RAW_IF_MATCHED;
	default:
		return PF_PRINT_RAW;
	}
}
