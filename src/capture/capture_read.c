// SPDX-License-Identifier: MIT
/*
 * Capture reader: maps the file and indexes its records, checking every
 * header so later stages can trust lengths and offsets.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/capture.h"
#include "util/inmap.h"
#include "util/log.h"
#include "util/vec.h"

/*
 * Headers are read with pread(), not through the mapping: touching them
 * there would fault in nearly every page of a capture of small records.
 */
static int index_records(struct f2t_capr *r, int fd)
{
	size_t cap = 0;
	uint64_t off = 16;

	while (off < r->size) {
		struct f2t_cap_rec rec;
		unsigned char hdr[16];
		uint64_t padded;

		if (r->size - off < 16) {
			f2t_err("%s: offset %llu: truncated record header",
				 r->path, (unsigned long long)off);
			return -EINVAL;
		}
		if (pread(fd, hdr, sizeof(hdr), (off_t)off) != (ssize_t)sizeof(hdr)) {
			f2t_err("%s: offset %llu: cannot read a record header",
				 r->path, (unsigned long long)off);
			return -EIO;
		}
		memcpy(&rec.type, hdr, 4);
		memcpy(&rec.arg, hdr + 4, 4);
		memcpy(&rec.len, hdr + 8, 8);
		padded = (rec.len + 7) & ~7ull;
		if (rec.len > r->size || padded > r->size - off - 16) {
			/* A recorder killed mid-write leaves a partial last record. */
			f2t_err("%s: offset %llu: record of %llu bytes runs past the end of the file (%zu bytes)",
				 r->path, (unsigned long long)off,
				 (unsigned long long)rec.len, r->size);
			return -EINVAL;
		}
		if (rec.type == F2T_CAP_END) {
			r->complete = true;
			off += 16;
			if (off != r->size) {
				f2t_err("%s: offset %llu: data after the end record",
					 r->path, (unsigned long long)off);
				return -EINVAL;
			}
			break;
		}
		if (rec.type == 0 || rec.type > F2T_CAP_TYPE_MAX) {
			f2t_err("%s: offset %llu: unknown record type %u",
				 r->path, (unsigned long long)off, rec.type);
			return -EINVAL;
		}
		rec.offset = off + 16;
		rec.data = r->map + rec.offset;
		if (f2t_vec_reserve(&r->recs, &cap, r->nrecs + 1, 256)) {
			f2t_err("%s: out of memory", r->path);
			return -ENOMEM;
		}
		r->recs[r->nrecs++] = rec;
		off += 16 + padded;
	}
	return 0;
}

struct f2t_capr *f2t_capr_open_fd(const char *path, int fd)
{
	struct f2t_capr *r = calloc(1, sizeof(*r));
	struct stat st;
	uint32_t version;
	int ret = 0;

	if (!r || !(r->path = strdup(path))) {
		free(r);
		f2t_err("%s: out of memory", path);
		errno = ENOMEM;
		return NULL;
	}
	r->inmap.slot = -1;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		f2t_err("%s: %s", path, strerror(errno));
		goto out;
	}
	r->size = (size_t)st.st_size;
	if (r->size < 16) {
		ret = -EINVAL;
		f2t_err("%s: offset 0: too short to be a capture (%zu bytes)",
			 path, r->size);
		goto out;
	}
	ret = f2t_inmap_open(&r->inmap, fd, r->size, r->path);
	if (ret) {
		f2t_err("%s: %s", path, strerror(-ret));
		goto out;
	}
	r->map = r->inmap.data;
	memcpy(&version, r->map + 8, 4);
	if (memcmp(r->map, F2T_CAP_MAGIC, 8) != 0) {
		ret = -EINVAL;
		f2t_err("%s: offset 0: not an ftrace2trace capture (bad magic)", path);
		goto out;
	}
	if (version != F2T_CAP_VERSION) {
		ret = -EINVAL;
		f2t_err("%s: offset 8: capture version %u, this build reads %u",
			 path, version, F2T_CAP_VERSION);
		goto out;
	}
	ret = index_records(r, fd) ?: f2t_inmap_check();
out:
	if (ret) {
		f2t_capr_close(r);
		errno = -ret;
		return NULL;
	}
	return r;
}

struct f2t_capr *f2t_capr_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;
	struct f2t_capr *r;

	if (fd < 0) {
		f2t_err("%s: %s", path, strerror(errno));
		return NULL;
	}
	r = f2t_capr_open_fd(path, fd);
	err = errno;
	close(fd);
	errno = err;
	return r;
}

void f2t_capr_close(struct f2t_capr *r)
{
	if (!r)
		return;
	f2t_inmap_close(&r->inmap);
	free(r->recs);
	free(r->path);
	free(r);
}

const struct f2t_cap_rec *f2t_capr_find(const struct f2t_capr *r, uint32_t type,
					 long arg)
{
	for (size_t i = 0; i < r->nrecs; i++)
		if (r->recs[i].type == type && (arg < 0 || r->recs[i].arg == (uint32_t)arg))
			return &r->recs[i];
	return NULL;
}

char *f2t_capr_kv(const struct f2t_cap_rec *r, const char *key)
{
	size_t klen = strlen(key);
	const char *p, *end;

	if (!r)
		return NULL;
	p = r->data;
	end = p + r->len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > klen && p[klen] == '=' && memcmp(p, key, klen) == 0)
			return strndup(p + klen + 1, (size_t)(nl - p - klen - 1));
		p = nl + 1;
	}
	return NULL;
}

char *f2t_capr_meta(const struct f2t_capr *r, const char *key)
{
	return f2t_capr_kv(f2t_capr_find(r, F2T_CAP_META, -1), key);
}

uint64_t f2t_capr_kv_u64(const struct f2t_cap_rec *r, const char *key)
{
	char *v = f2t_capr_kv(r, key);
	uint64_t n = v ? strtoull(v, NULL, 10) : 0;

	free(v);
	return n;
}

int f2t_capr_split_by_cpu(const struct f2t_capr *r, uint32_t type, uint32_t max_cpus,
			  struct f2t_cap_cpus *out)
{
	*out = (struct f2t_cap_cpus){ 0 };
	for (size_t i = 0; i < r->nrecs; i++) {
		if (r->recs[i].type != type)
			continue;
		if (r->recs[i].arg >= max_cpus) {
			f2t_err("%s: offset %llu: cpu %u out of range", r->path,
				 (unsigned long long)r->recs[i].offset - 16, r->recs[i].arg);
			return -EINVAL;
		}
		if (r->recs[i].arg + 1 > out->ncpus)
			out->ncpus = r->recs[i].arg + 1;
	}
	out->cpu = calloc(out->ncpus ? out->ncpus : 1, sizeof(*out->cpu));
	if (!out->cpu)
		goto nomem;
	for (size_t i = 0; i < r->nrecs; i++) {
		struct f2t_cap_cpu *c;
		size_t *n;

		if (r->recs[i].type != type || !r->recs[i].len)
			continue;
		c = &out->cpu[r->recs[i].arg];
		n = f2t_vec_push(&c->recs, &c->n, &c->cap, 64);
		if (!n)
			goto nomem;
		*n = i;
	}
	return 0;
nomem:
	f2t_cap_cpus_free(out);
	f2t_err("%s: out of memory", r->path);
	return -ENOMEM;
}

void f2t_cap_cpus_free(struct f2t_cap_cpus *c)
{
	for (uint32_t i = 0; c->cpu && i < c->ncpus; i++)
		free(c->cpu[i].recs);
	free(c->cpu);
	*c = (struct f2t_cap_cpus){ 0 };
}
