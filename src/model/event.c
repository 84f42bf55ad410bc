// SPDX-License-Identifier: MIT
/* What an event's own source can tell about it, whichever source that is. */
#include <errno.h>

#include "model/event.h"

const char *f2t_event_text(const struct f2t_event *ev, const struct f2t_task *task, size_t *len)
{
	struct f2t_source *s = ev->src;

	if (!s || !s->ops->text) {
		errno = ENOENT;
		return NULL;
	}
	return s->ops->text(s, ev, task, len);
}

int f2t_event_fields(const struct f2t_event *ev, f2t_field_fn fn, void *ctx)
{
	struct f2t_source *s = ev->src;

	if (!s || !s->ops->fields)
		return -ENOENT;
	return s->ops->fields(s, ev, fn, ctx);
}
