// SPDX-License-Identifier: MIT
/* Guarded read-only mappings of input files; see inmap.h. */
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util/inmap.h"
#include "util/log.h"

/* Mapped inputs open at once: a run's inputs, and a few more. */
#define SLOTS 64

/* What the handler reads: a slot is in use while its start is not 0. */
static struct slot {
	_Atomic uintptr_t start;
	size_t len;
	const char *path;
	volatile sig_atomic_t cut;
	bool reported;
} slots[SLOTS];

volatile int f2t_inmap_cut;
static struct sigaction old_bus;
static uintptr_t page_size;
static bool installed;

/* Not ours: as the handler before ours would have it, or the default (death, with a core). */
static void pass_on(int sig, siginfo_t *info, void *uctx)
{
	if (old_bus.sa_flags & SA_SIGINFO) {
		old_bus.sa_sigaction(sig, info, uctx);
	} else if (old_bus.sa_handler != SIG_DFL && old_bus.sa_handler != SIG_IGN) {
		old_bus.sa_handler(sig);
	} else {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		/* The access is made again on return, and kills. */
		sigaction(SIGBUS, &dfl, NULL);
	}
}

static void on_sigbus(int sig, siginfo_t *info, void *uctx)
{
	uintptr_t addr = (uintptr_t)info->si_addr;

	for (size_t i = 0; i < SLOTS; i++) {
		uintptr_t start = atomic_load(&slots[i].start), from, to;

		if (!start || addr - start >= slots[i].len)
			continue;
		/* Every page from the one touched on: the file ends before it. */
		from = addr & ~(page_size - 1);
		to = (start + slots[i].len + page_size - 1) & ~(page_size - 1);
		if (mmap((void *)from, to - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) == MAP_FAILED)
			break;
		slots[i].cut = 1;
		f2t_inmap_cut = 1;
		return;
	}
	pass_on(sig, info, uctx);
}

int f2t_inmap_arm(void)
{
	struct sigaction sa = { .sa_sigaction = on_sigbus, .sa_flags = SA_SIGINFO | SA_ONSTACK };

	if (installed)
		return 0;
	page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &old_bus))
		return -errno;
	installed = true;
	return 0;
}

int f2t_inmap_open(struct f2t_inmap *m, int fd, size_t len, const char *path)
{
	void *p;
	int ret = f2t_inmap_arm();

	*m = (struct f2t_inmap){ .slot = -1 };
	if (ret)
		return ret;
	for (size_t i = 0; i < SLOTS; i++)
		if (!atomic_load(&slots[i].start) && !slots[i].cut) {
			m->slot = (int)i;
			break;
		}
	if (m->slot < 0)
		return -EMFILE;
	p = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		m->slot = -1;
		return -errno;
	}
	slots[m->slot].len = len;
	slots[m->slot].path = path;
	slots[m->slot].reported = false;
	atomic_store(&slots[m->slot].start, (uintptr_t)p);
	m->data = p;
	m->len = len;
	return 0;
}

static void report(struct slot *s)
{
	if (s->cut && !s->reported) {
		f2t_err("%s: changed while being read: another program truncated or replaced it (damage reported in it above comes from that)",
			s->path);
		s->reported = true;
	}
}

int f2t_inmap_report(void)
{
	for (size_t i = 0; i < SLOTS; i++)
		if (atomic_load(&slots[i].start))
			report(&slots[i]);
	return -EIO;
}

void f2t_inmap_close(struct f2t_inmap *m)
{
	struct slot *s;

	if (m->slot < 0 || !m->data)
		return;
	s = &slots[m->slot];
	/* Cut after the last check: said now, while the name is known. */
	report(s);
	atomic_store(&s->start, 0);
	munmap((void *)m->data, m->len);
	s->cut = 0;
	*m = (struct f2t_inmap){ .slot = -1 };
}
