// SPDX-License-Identifier: MIT
/*
 * The latency trigger through libbpf and the skeleton bpftool generated
 * from bpf/latency.bpf.c: its program runs from a cpu-clock perf event on
 * each CPU, which samples nothing (no ring), every f2t_latency_period().  Nothing is
 * read while no wait crosses the threshold: the ring wakes us only for a
 * record.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "latency.skel.h"
#include "record/bpf_targets.h"
#include "record/latency.h"
#include "util/log.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

#define QUEUE 32	/* records taken from the ring at once */

struct f2t_latency {
	struct latency_bpf *skel;
	struct ring_buffer *rb;
	int *fds;		/* the timers, one per online CPU */
	struct bpf_link **links;
	int nfds;
	struct f2t_latency_rec queue[QUEUE];
	int head, len;
};

/* Whether struct @type of the kernel has a member @member. */
static bool has_member(const struct btf *btf, const char *type, const char *member)
{
	int id = btf__find_by_name_kind(btf, type, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (__u32)id) : NULL;
	const struct btf_member *m = t ? btf_members(t) : NULL;

	for (int i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, m[i].name_off), member))
			return true;
	return false;
}

/*
 * The program reads the scheduler's delay accounting (CONFIG_SCHED_INFO)
 * and the run queue through a task's CFS one (CONFIG_FAIR_GROUP_SCHED):
 * said here in words, not as a relocation the verifier refuses.
 */
static int kernel_has_fields(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int err = 0;

	if (!btf)
		return 0;	/* the load will say what is wrong */
	if (!has_member(btf, "sched_info", "last_queued") ||
	    !has_member(btf, "sched_info", "run_delay") ||
	    !has_member(btf, "sched_entity", "exec_start")) {
		f2t_err("--trigger-latency: this kernel keeps no scheduling delays "
			"(built without CONFIG_SCHED_INFO: no /proc/PID/schedstat)");
		err = -ENOTSUP;
	} else if (!has_member(btf, "cfs_rq", "rq")) {
		f2t_err("--trigger-latency: this kernel's run queues cannot be reached from "
			"a task (built without CONFIG_FAIR_GROUP_SCHED)");
		err = -ENOTSUP;
	}
	btf__free(btf);
	return err;
}

static int take(void *ctx, void *data, size_t size)
{
	struct f2t_latency *l = ctx;

	if (size != sizeof(l->queue[0]) || l->len == QUEUE)
		return 0;	/* not ours; or more at once than a trigger needs */
	memcpy(&l->queue[(l->head + l->len++) % QUEUE], data, size);
	return 0;
}

/*
 * One cpu-clock event per online CPU, firing every @period_ns, with the
 * program attached.  A CPU offline now is not looked at.
 */
static int open_timers(struct f2t_latency *l, int ncpus, uint64_t period_ns)
{
	struct perf_event_attr a = {
		.size = sizeof(a),
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = period_ns,
	};

	l->fds = calloc((size_t)ncpus, sizeof(*l->fds));
	l->links = calloc((size_t)ncpus, sizeof(*l->links));
	if (!l->fds || !l->links)
		return -ENOMEM;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		struct bpf_link *link;

		if (fd < 0 && errno == ENODEV)
			continue;
		if (fd < 0)
			return -errno;
		l->fds[l->nfds++] = fd;
		link = bpf_program__attach_perf_event(l->skel->progs.latency_scan, fd);
		if (!link)
			return -errno;
		l->links[l->nfds - 1] = link;
	}
	return 0;
}

int f2t_latency_open(struct f2t_latency **out, const struct f2t_latency_opts *o)
{
	struct f2t_latency *l = calloc(1, sizeof(*l));
	int err;

	*out = NULL;
	if (!l)
		return -ENOMEM;
	if (access(BTF_PATH, R_OK) < 0) {
		err = -ENOTSUP;
		f2t_err("--trigger-latency: the kernel has no BTF (%s: %s); it needs a kernel "
			"built with CONFIG_DEBUG_INFO_BTF", BTF_PATH, strerror(errno));
		goto out;
	}
	err = kernel_has_fields();
	if (err)
		goto out;
	l->skel = latency_bpf__open();
	if (!l->skel) {
		err = -errno;
		f2t_err("--trigger-latency: cannot open the BPF program: %s", strerror(-err));
		goto out;
	}
	l->skel->rodata->threshold_ns = o->threshold_ns;
	l->skel->rodata->filter = o->scope != F2T_SCOPE_ALL;
	err = latency_bpf__load(l->skel);
	/* EPERM: capabilities or lockdown; as root, EACCES is the verifier's refusal. */
	if (err == -EPERM || (err == -EACCES && geteuid())) {
		f2t_err("--trigger-latency: not permitted to load BPF programs (needs root, "
			"or CAP_BPF and CAP_PERFMON)");
		goto out;
	} else if (err) {
		f2t_err("--trigger-latency: the kernel refused the BPF program (%s); it needs "
			"Linux 6.2 or later", strerror(-err));
		goto out;
	}
	err = f2t_bpf_fill_targets(bpf_map__fd(l->skel->maps.targets), o->scope, o->child,
				   o->pids, o->npids);
	if (err) {
		f2t_err("--trigger-latency: cannot fill the process filter: %s", strerror(-err));
		goto out;
	}
	l->rb = ring_buffer__new(bpf_map__fd(l->skel->maps.hits), take, l, NULL);
	if (!l->rb) {
		err = -errno;
		f2t_err("--trigger-latency: cannot map the ring buffer: %s", strerror(-err));
		goto out;
	}
	err = latency_bpf__attach(l->skel);
	if (err) {
		f2t_err("--trigger-latency: cannot attach to the sched_process_fork tracepoint: %s",
			strerror(-err));
		goto out;
	}
	err = open_timers(l, o->ncpus, f2t_latency_period(o->threshold_ns));
	if (err)
		f2t_err("--trigger-latency: cannot run the BPF program from a cpu-clock perf "
			"event on each CPU: %s", strerror(-err));
out:
	if (err)
		f2t_latency_close(l);
	else
		*out = l;
	return err;
}

int f2t_latency_fd(const struct f2t_latency *l)
{
	return l ? ring_buffer__epoll_fd(l->rb) : -1;
}

int f2t_latency_read(struct f2t_latency *l, struct f2t_latency_rec *hit)
{
	int n;

	if (!l)
		return 0;
	if (!l->len) {
		l->head = 0;
		n = ring_buffer__consume(l->rb);
		if (n < 0) {
			f2t_err("reading the latency trigger's ring buffer: %s", strerror(-n));
			return n;
		}
		if (!l->len)
			return 0;
	}
	*hit = l->queue[l->head];
	hit->comm[sizeof(hit->comm) - 1] = '\0';
	l->head = (l->head + 1) % QUEUE;
	l->len--;
	return 1;
}

void f2t_latency_close(struct f2t_latency *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->nfds; i++) {
		bpf_link__destroy(l->links[i]);
		close(l->fds[i]);
	}
	free(l->links);
	free(l->fds);
	ring_buffer__free(l->rb);
	latency_bpf__destroy(l->skel);
	free(l);
}

void f2t_latency_drop(struct f2t_latency *l)
{
	if (!l)
		return;
	/*
	 * libbpf detaches a perf event's program by disabling the event,
	 * which the parent shares: the links are only forgotten here.
	 */
	for (int i = 0; i < l->nfds; i++) {
		int fd = l->links[i] ? bpf_link__fd(l->links[i]) : -1;

		if (l->links[i]) {
			bpf_link__disconnect(l->links[i]);
			bpf_link__destroy(l->links[i]);
		}
		if (fd >= 0 && fd != l->fds[i])
			close(fd);
		close(l->fds[i]);
	}
	l->nfds = 0;
	f2t_latency_close(l);
}
