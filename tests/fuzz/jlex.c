// SPDX-License-Identifier: MIT
/*
 * JSON through merge's streaming tokenizer (every token to the end), then
 * as one value skipped and one copied verbatim, as merge does with values
 * it passes through.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "merge/jlex.h"
#include "merge/jvalue.h"
#include "util/out.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1, null = -1;
	struct f2t_jlex lx;
	struct f2t_out *out;
	int tok;

	fz_init();
	if (fd < 0 && ((fd = memfd_create("fuzz-json", MFD_CLOEXEC)) < 0 ||
		       (null = open("/dev/null", O_WRONLY | O_CLOEXEC)) < 0))
		abort();
	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		abort();

	lseek(fd, 0, SEEK_SET);
	if (f2t_jlex_init_fd(&lx, fd, "fuzz.json"))
		return 0;
	while ((tok = f2t_jlex_next(&lx)) > 0)
		;
	f2t_jlex_fini(&lx);

	lseek(fd, 0, SEEK_SET);
	if (f2t_jlex_init_fd(&lx, fd, "fuzz.json"))
		return 0;
	f2t_jvalue_skip(&lx);
	f2t_jlex_fini(&lx);

	lseek(fd, 0, SEEK_SET);
	out = f2t_out_fdopen(null, "/dev/null");
	if (!out || f2t_jlex_init_fd(&lx, fd, "fuzz.json"))
		abort();
	f2t_jvalue_copy(&lx, out);
	f2t_jlex_fini(&lx);
	f2t_out_close(out);
	return 0;
}
