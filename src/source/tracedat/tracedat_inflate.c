// SPDX-License-Identifier: MIT
/*
 * A big compressed trace.dat is read through an uncompressed copy.
 * libtracecmd before 1.5.1 never frees a chunk it has decompressed in
 * memory, and looks every page it lets go of up in the list of all of
 * them: reading a compressed file takes time quadratic in its size and
 * memory for all of it (5 M events: 3.0 s and 208 MB, against 0.98 s for a
 * copy and its conversion; trace-cmd fixed it in commits 5274db32 and
 * 1571b67c).  The copy is libtracecmd's own, as `trace-cmd convert
 * --compression none` makes it, in $TMPDIR, removed as soon as it is open
 * (and by the stop signals' handler before then).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "source/tracedat/tracecmd-private.h"
#include "source/tracedat/tracedat.h"
#include "util/log.h"
#include "util/outfile.h"

/*
 * Below this the quadratic cost is smaller than the copy's.  Zstd-compressed
 * sched events take 2.5 MB a million plus a megabyte or so of formats and
 * symbols: 1.09 M events (4.5 MB) took 0.25 s read directly and 0.42 s
 * through the copy, 5 M events (12.3 MB) 3.0 s and 0.98 s; a quadratic
 * and a linear fit of those meet near 1.75 M events, about 6 MB.
 */
#define INFLATE_MIN_BYTES (6u << 20)

bool f2t_tracedat_should_inflate(struct tracecmd_input *handle, uint64_t file_size)
{
#ifdef F2T_TRACECMD_CHUNKS_LEAK
	const char *name = NULL, *version = NULL;

	return file_size >= INFLATE_MIN_BYTES &&
	       !tracecmd_get_file_compress_proto(handle, &name, &version) && name &&
	       strcmp(name, "none");
#else
	return false;
#endif
}

/*
 * libtracecmd reports where each CPU's data went on stderr as it copies:
 * noise here, unless -v.  Returns the saved stderr, or -1 if nothing moved.
 */
static int mute_stderr(void)
{
	int saved, null;

	if (f2t_verbose)
		return -1;
	fflush(stderr);
	saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (saved < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0) {
		if (saved >= 0)
			close(saved);
		saved = -1;
	}
	if (null >= 0)
		close(null);
	return saved;
}

static void unmute_stderr(int saved)
{
	if (saved < 0)
		return;
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
}

struct tracecmd_input *f2t_tracedat_inflate(const char *path, const char *open_path, int flags)
{
	const char *dir = getenv("TMPDIR");
	struct tracecmd_input *head = NULL, *copy = NULL;
	struct tracecmd_output *out;
	struct f2t_outfile tmp = { .fd = -1, .slot = -1 };
	char name[PATH_MAX];
	sigset_t old;
	int ret, saved;

	if (!dir || !*dir)
		dir = "/tmp";
	snprintf(name, sizeof(name), "%s/ftrace2trace-uncompressed.dat", dir);
	ret = f2t_outfile_open(&tmp, name, F2T_OUTFILE_PRIVATE);
	if (ret) {
		f2t_warn("%s: cannot make an uncompressed copy in %s (%s): reading it compressed, which libtracecmd before 1.5.1 does in time quadratic in its size",
			 path, dir, strerror(-ret));
		return NULL;
	}
	f2t_info("%s: copying it uncompressed into %s first (libtracecmd before 1.5.1 reads compressed files in quadratic time)",
		 path, tmp.tmp);
	/*
	 * libtracecmd decompresses each CPU's data into a file of its own in
	 * /tmp first, removed only when HEAD is closed: a stop signal waits
	 * until then (0.26 s for 5 M events here).
	 */
	f2t_outfile_hold_signals(&old);
	saved = mute_stderr();
	head = tracecmd_open_head(open_path, flags);
	out = head ? tracecmd_copy(head, tmp.tmp, TRACECMD_FILE_CPU_FLYRECORD, 7, "none") : NULL;
	ret = out ? 0 : -errno ?: -EIO;
	if (out)
		tracecmd_output_close(out);
	unmute_stderr(saved);
	if (head)
		tracecmd_close(head);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!ret) {
		copy = tracecmd_open(tmp.tmp, flags);
		if (!copy)
			ret = -errno ?: -EIO;
	}
	if (ret)
		f2t_warn("%s: its uncompressed copy in %s failed (%s): reading it compressed, which libtracecmd before 1.5.1 does in time quadratic in its size",
			 path, dir, strerror(-ret));
	/* An open trace.dat is read through its descriptor: the name can go. */
	f2t_outfile_abort(&tmp);
	return copy;
}
