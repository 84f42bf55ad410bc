// SPDX-License-Identifier: MIT
/*
 * The processes in scope are a set of tgids: open addressing with linear
 * probing, 0 an empty slot, TOMB a removed one (pids are positive).
 * Removals are rare (a pid reused within one recording), so a removed slot
 * is reused by the next insertion that passes it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "capture/perf_rec.h"
#include "source/perf/sample_filter.h"

#define TOMB (-1)
#define MIN_SLOTS 64

struct f2t_sample_filter {
	int32_t *slots;
	size_t cap;		/* a power of two */
	size_t used;		/* slots not empty, removed ones included */
	int32_t exec_root;	/* command scope: joins at its exec; 0 once joined */
	uint64_t left_out;
};

static size_t home(const struct f2t_sample_filter *s, int32_t pid)
{
	/* Multiplicative hashing spreads consecutive pids over the table. */
	return ((uint32_t)pid * 2654435761u) & (s->cap - 1);
}

/* PID's slot, or NULL.  A table is never full: the walk ends. */
static int32_t *find(const struct f2t_sample_filter *s, int32_t pid)
{
	for (size_t i = home(s, pid); s->slots[i]; i = (i + 1) & (s->cap - 1))
		if (s->slots[i] == pid)
			return &s->slots[i];
	return NULL;
}

static bool has(const struct f2t_sample_filter *s, int32_t pid)
{
	return pid > 0 && find(s, pid);
}

static int add(struct f2t_sample_filter *s, int32_t pid);

/* Twice the room, removed slots dropped.  0 or -ENOMEM. */
static int grow(struct f2t_sample_filter *s)
{
	int32_t *old = s->slots;
	size_t ocap = s->cap;

	s->slots = calloc(ocap * 2, sizeof(*s->slots));
	if (!s->slots) {
		s->slots = old;
		return -ENOMEM;
	}
	s->cap = ocap * 2;
	s->used = 0;
	for (size_t i = 0; i < ocap; i++)
		if (old[i] > 0)
			add(s, old[i]);	/* cannot fail: at most half full */
	free(old);
	return 0;
}

static int add(struct f2t_sample_filter *s, int32_t pid)
{
	int32_t *slot = NULL;
	size_t i;

	if ((s->used + 1) * 2 > s->cap && grow(s))
		return -ENOMEM;
	for (i = home(s, pid); s->slots[i]; i = (i + 1) & (s->cap - 1)) {
		if (s->slots[i] == pid)
			return 0;
		if (s->slots[i] == TOMB && !slot)
			slot = &s->slots[i];
	}
	if (!slot) {
		slot = &s->slots[i];
		s->used++;
	}
	*slot = pid;
	return 0;
}

static void del(struct f2t_sample_filter *s, int32_t pid)
{
	int32_t *slot = find(s, pid);

	if (slot)
		*slot = TOMB;
}

/* "PID[,PID...]" into S: 0 or -EINVAL / -ENOMEM. */
static int parse_roots(struct f2t_sample_filter *s, const char *roots, bool command)
{
	const char *p = roots;

	for (;;) {
		char *end;
		long pid;

		if (!isdigit((unsigned char)*p))
			return -EINVAL;
		errno = 0;
		pid = strtol(p, &end, 10);
		if (errno || pid <= 0 || pid > INT32_MAX || (*end && *end != ','))
			return -EINVAL;
		if (command) {
			/* One command, one root. */
			if (s->exec_root || *end)
				return -EINVAL;
			s->exec_root = (int32_t)pid;
		} else if (add(s, (int32_t)pid)) {
			return -ENOMEM;
		}
		if (!*end)
			return 0;
		p = end + 1;
	}
}

struct f2t_sample_filter *f2t_sample_filter_new(const char *scope, const char *roots)
{
	struct f2t_sample_filter *s;
	bool command = scope && !strcmp(scope, "command");
	int err;

	if (!roots || !scope || !strcmp(scope, "all")) {
		errno = 0;
		return NULL;
	}
	if (!command && strcmp(scope, "pids")) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->cap = MIN_SLOTS;
	s->slots = calloc(s->cap, sizeof(*s->slots));
	err = s->slots ? parse_roots(s, roots, command) : -ENOMEM;
	if (err) {
		f2t_sample_filter_free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

int f2t_sample_filter_skip(struct f2t_sample_filter *s, const unsigned char *rec, size_t size,
			  uint64_t sample_type)
{
	const unsigned char *p = rec + sizeof(struct perf_event_header);
	size_t body = size - sizeof(struct perf_event_header);
	struct perf_event_header h;

	if (!s)
		return 0;
	memcpy(&h, rec, sizeof(h));
	switch (h.type) {
	case PERF_RECORD_SAMPLE: {
		/* {ip,} pid, tid: we never ask for PERF_SAMPLE_IDENTIFIER */
		size_t at = (sample_type & PERF_SAMPLE_IP) ? 8 : 0;

		if (body < at + 4 || has(s, (int32_t)f2t_perf_u32(p + at)))
			return 0;	/* a cut sample is the decoder's to count */
		s->left_out++;
		return 1;
	}
	case PERF_RECORD_FORK: {
		/* pid, ppid, tid, ptid: ppid is the forking task's process */
		int32_t pid, ppid;

		if (body < 16)
			return 0;
		pid = (int32_t)f2t_perf_u32(p);
		ppid = (int32_t)f2t_perf_u32(p + 4);
		if (pid == ppid)
			return 0;	/* a new thread: its process decides */
		if (has(s, ppid))
			return add(s, pid);
		del(s, pid);
		return 0;
	}
	case PERF_RECORD_COMM:
		/* pid, tid, comm */
		if (body >= 8 && (h.misc & PERF_RECORD_MISC_COMM_EXEC) && s->exec_root &&
		    (int32_t)f2t_perf_u32(p) == s->exec_root) {
			s->exec_root = 0;
			return add(s, (int32_t)f2t_perf_u32(p));
		}
		return 0;
	default:
		return 0;
	}
}

uint64_t f2t_sample_filter_left_out(const struct f2t_sample_filter *s)
{
	return s ? s->left_out : 0;
}

void f2t_sample_filter_free(struct f2t_sample_filter *s)
{
	if (!s)
		return;
	free(s->slots);
	free(s);
}
