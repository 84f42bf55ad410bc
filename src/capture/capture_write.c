// SPDX-License-Identifier: MIT
/*
 * Capture writer.  Records are appended with one writev() under a mutex so the
 * per-CPU readers can share the file; nothing is buffered in user space, so a
 * recorder killed mid-run leaves every whole record it wrote readable (in the
 * hidden temporary file: the capture takes its name only when closed).
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "capture/capture.h"
#include "util/outfile.h"

struct f2t_capw {
	struct f2t_outfile file;
	int err;
	uint64_t bytes;
	pthread_mutex_t lock;
};

static int write_all(int fd, struct iovec *iov, int n)
{
	while (n > 0) {
		ssize_t w = writev(fd, iov, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		while (n > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			n--;
		}
		if (n > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	return 0;
}

struct f2t_capw *f2t_capw_open(const char *path, bool unnamed)
{
	struct f2t_capw *w;
	unsigned char hdr[16] = F2T_CAP_MAGIC;
	uint32_t version = F2T_CAP_VERSION;
	struct iovec iov = { hdr, sizeof(hdr) };
	int err;

	memcpy(hdr + 8, &version, 4);
	w = calloc(1, sizeof(*w));
	if (!w)
		return NULL;
	pthread_mutex_init(&w->lock, NULL);
	/* Private: it holds kernel addresses and every process's mappings. */
	err = f2t_outfile_open(&w->file, path,
			       F2T_OUTFILE_PRIVATE | (unnamed ? F2T_OUTFILE_UNNAMED : 0));
	if (!err) {
		err = write_all(w->file.fd, &iov, 1);
		if (err)
			f2t_outfile_abort(&w->file);
	}
	if (err) {
		pthread_mutex_destroy(&w->lock);
		free(w);
		errno = -err;
		return NULL;
	}
	w->bytes = sizeof(hdr);
	return w;
}

int f2t_capw_add2(struct f2t_capw *w, uint32_t type, uint32_t arg,
		  const void *a, size_t alen, const void *b, size_t blen)
{
	static const unsigned char zeros[8];
	uint64_t len = alen + blen;
	unsigned char hdr[16];
	struct iovec iov[4];
	int err;

	memcpy(hdr, &type, 4);
	memcpy(hdr + 4, &arg, 4);
	memcpy(hdr + 8, &len, 8);
	iov[0] = (struct iovec){ hdr, sizeof(hdr) };
	iov[1] = (struct iovec){ (void *)a, alen };
	iov[2] = (struct iovec){ (void *)b, blen };
	iov[3] = (struct iovec){ (void *)zeros, (8 - len % 8) % 8 };

	pthread_mutex_lock(&w->lock);
	err = w->err;
	if (!err) {
		err = write_all(w->file.fd, iov, 4);
		if (err)
			w->err = err;
		else
			w->bytes += sizeof(hdr) + len + iov[3].iov_len;
	}
	pthread_mutex_unlock(&w->lock);
	return err;
}

int f2t_capw_add(struct f2t_capw *w, uint32_t type, uint32_t arg,
		 const void *data, size_t len)
{
	return f2t_capw_add2(w, type, arg, data, len, NULL, 0);
}

uint64_t f2t_capw_bytes(const struct f2t_capw *w)
{
	return w->bytes;
}

int f2t_capw_error(const struct f2t_capw *w)
{
	return w->err;
}

const char *f2t_capw_name(const struct f2t_capw *w)
{
	return w->file.path;
}

int f2t_capw_fd(const struct f2t_capw *w)
{
	return w->file.fd;
}

int f2t_capw_close(struct f2t_capw *w)
{
	int err;

	if (!w)
		return 0;
	err = f2t_capw_add(w, F2T_CAP_END, 0, NULL, 0);
	if (err)
		f2t_outfile_abort(&w->file);
	else
		err = f2t_outfile_commit(&w->file);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return err;
}

void f2t_capw_abort(struct f2t_capw *w)
{
	if (!w)
		return;
	f2t_outfile_abort(&w->file);
	pthread_mutex_destroy(&w->lock);
	free(w);
}
