// SPDX-License-Identifier: MIT
/*
 * The ftrace text input (source/text_*.c): any bytes, opened as ftrace text
 * or as a systrace HTML file when the probes take them, and every event read
 * with its text and fields, as a conversion does.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "source/input.h"
#include "source/source.h"
#include "fuzz.h"

static int add_field(void *ctx, const char *name, int is_str, long long num, const char *str)
{
	*(size_t *)ctx += strlen(name) + (is_str ? strlen(str) : (size_t)(num & 1));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < F2T_INPUT_PROBE_LEN ? size : F2T_INPUT_PROBE_LEN;
	const struct f2t_input_kind *kind = NULL;
	struct f2t_input *in = NULL;
	char path[64];
	int fd;

	fz_init();
	if (f2t_html_input.probe(data, head))
		kind = &f2t_html_input;
	else if (f2t_text_input.probe(data, head))
		kind = &f2t_text_input;
	if (!kind)
		return 0;
	fd = memfd_create("f2t-fuzz", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (kind->open(path, &in) == 0) {
		struct f2t_event ev;
		size_t sum = 0, len;

		while (f2t_source_next(in->events, &ev) > 0) {
			const char *text = f2t_event_text(&ev, &len);

			if (text && text[len] != '\0')
				abort();	/* the text op ends its text */
			f2t_event_fields(&ev, add_field, &sum);
		}
		f2t_input_close(in);
	}
	close(fd);
	return 0;
}
