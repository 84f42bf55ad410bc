// SPDX-License-Identifier: MIT
/*
 * libFuzzer harness for the ftrace text input (source/text_*.c): any bytes,
 * opened as ftrace text or as a systrace HTML file when the probes take
 * them, and every event read with its text and fields, as a conversion
 * does.  Nothing may crash, hang or touch memory it should not (built with
 * AddressSanitizer and UBSan by `make fuzz`).
 *
 *   make fuzz
 *   build/fuzz/fuzz_text_input -max_total_time=60 tests/fuzz/corpus/text_input
 *
 * Built with -DF2T_FUZZ_REPLAY it is a plain program that runs the files it
 * is given once each: `make check` replays the corpus that way
 * (tests/integration/fuzz_corpus.sh).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "source/input.h"
#include "source/source.h"
#include "util/log.h"

static int add_field(void *ctx, const char *name, int is_str, long long num, const char *str)
{
	*(size_t *)ctx += strlen(name) + (is_str ? strlen(str) : (size_t)(num & 1));
	return 0;
}

/* Reads every event of the input the bytes make, if they make one. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t head = size < F2T_INPUT_PROBE_LEN ? size : F2T_INPUT_PROBE_LEN;
	const struct f2t_input_kind *kind = NULL;
	static FILE *devnull;
	struct f2t_input *in = NULL;
	char path[64];
	int fd;

	if (!devnull) {
		devnull = fopen("/dev/null", "w");
		f2t_log_set_output(devnull);
	}
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

#ifdef F2T_FUZZ_REPLAY
int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[1 << 20];
		size_t n;

		if (!f) {
			perror(argv[i]);
			return 1;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
	}
	printf("%d inputs replayed\n", argc - 1);
	return 0;
}
#endif
