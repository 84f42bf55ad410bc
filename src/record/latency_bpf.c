// SPDX-License-Identifier: MIT
/*
 * The latency trigger through libbpf and the skeleton bpftool generated
 * from bpf/latency.bpf.c.  Nothing is read while no wait crosses the
 * threshold: the ring wakes us only for a record.
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "latency.skel.h"
#include "record/bpf_targets.h"
#include "record/latency.h"
#include "record/procsnap.h"
#include "util/log.h"

#define BTF_PATH "/sys/kernel/btf/vmlinux"

struct f2t_latency {
	struct latency_bpf *skel;
	struct ring_buffer *rb;
	struct f2t_latency_rec worst;
	int found;
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
 * and the run queue through the CFS one (CONFIG_FAIR_GROUP_SCHED): said
 * here in words, not as a relocation the verifier refuses.
 */
static int kernel_has_fields(void)
{
	struct btf *btf = btf__load_vmlinux_btf();
	int err = 0;

	if (!btf)
		return 0;	/* the load will say what is wrong */
	if (!has_member(btf, "sched_info", "last_queued") ||
	    !has_member(btf, "sched_info", "run_delay")) {
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

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL	/* linux/pidfd.h, Linux 6.9 */
#endif

/* The unsigned number after @key in @text; false when absent. */
static bool field_after(const char *text, const char *key, unsigned long long *v)
{
	const char *p = strstr(text, key);

	return p && sscanf(p + strlen(key), "%llu", v) == 1;
}

/*
 * A watched thread already there gets its storage as the program would
 * give it at a run: its total wait to run so far (schedstat's second
 * field) and its involuntary switches.  Without it, the first wait the
 * thread ends after the arming could not be measured.  BPF_NOEXIST: what
 * a switch wrote first stays.  A thread gone meanwhile is skipped.
 */
static int seed_thread(int taskdir, long tgid, long tid, void *ctx)
{
	struct f2t_latency_seen v = { .wanted = 1 };
	unsigned long long run_time, run_delay, nivcsw;
	char buf[16384];	/* status: its Cpus and Mems lines grow with the machine */
	int map_fd = *(const int *)ctx, pidfd;

	if (f2t_proc_read_task(taskdir, tid, "schedstat", buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%llu %llu", &run_time, &run_delay) != 2 ||
	    f2t_proc_read_task(taskdir, tid, "status", buf, sizeof(buf)) <= 0 ||
	    !field_after(buf, "\nnonvoluntary_ctxt_switches:", &nivcsw))
		return 0;
	v.run_delay = run_delay;
	v.nivcsw = nivcsw;
	pidfd = (int)syscall(SYS_pidfd_open, (pid_t)tid, PIDFD_THREAD);
	if (pidfd < 0)
		return 0;
	bpf_map_update_elem(map_fd, &pidfd, &v, BPF_NOEXIST);
	close(pidfd);
	return 0;
}

/* The watched threads there now: the held child's, the -p ones', or all. */
static void seed_threads(int map_fd, const struct f2t_latency_opts *o)
{
	/* A pid of 0 would walk every process. */
	if (o->scope == F2T_SCOPE_COMMAND && o->child > 0)
		f2t_proc_each_thread(o->child, seed_thread, &map_fd);
	for (size_t i = 0; o->scope == F2T_SCOPE_PIDS && i < o->npids; i++)
		if (o->pids[i] > 0)
			f2t_proc_each_thread(o->pids[i], seed_thread, &map_fd);
	if (o->scope == F2T_SCOPE_ALL)
		f2t_proc_each_thread(0, seed_thread, &map_fd);
}

static int take(void *ctx, void *data, size_t size)
{
	struct f2t_latency *l = ctx;
	const struct f2t_latency_rec *r = data;

	if (size != sizeof(*r))
		return 0;	/* cannot happen: the program writes only these */
	if (!l->found || r->run_ns - r->wake_ns > l->worst.run_ns - l->worst.wake_ns)
		l->worst = *r;
	l->found = 1;
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
	if (err == -EPERM || err == -EACCES) {
		f2t_err("--trigger-latency: not permitted to load BPF programs (needs root, "
			"or CAP_BPF and CAP_PERFMON)");
		goto out;
	} else if (err) {
		f2t_err("--trigger-latency: the kernel refused the BPF program (%s)",
			strerror(-err));
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
	if (err)
		f2t_err("--trigger-latency: cannot attach to the sched_switch and "
			"sched_process_fork tracepoints: %s", strerror(-err));
	else
		seed_threads(bpf_map__fd(l->skel->maps.seen), o);
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
	l->found = 0;
	n = ring_buffer__consume(l->rb);
	if (n < 0) {
		f2t_err("reading the latency trigger's ring buffer: %s", strerror(-n));
		return n;
	}
	if (l->found)
		*hit = l->worst;
	return l->found;
}

void f2t_latency_close(struct f2t_latency *l)
{
	if (!l)
		return;
	ring_buffer__free(l->rb);
	latency_bpf__destroy(l->skel);
	free(l);
}
