// SPDX-License-Identifier: MIT
/*
 * DWARF unwinding of sampled user stacks with libdwfl.  Each process gets a
 * Dwfl session holding its mapped ELF files at their load biases; the
 * session's one "thread" starts from the sample's registers and reads
 * memory from the sample's stack copy, or from the read-only segments of
 * the mapped files.  Sessions are kept (a handful, least recently used
 * out) while the process's mappings stay the same, so each file's CFI is
 * parsed once per process rather than per sample.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <linux/perf_event.h>

#include "capture/perf_rec.h"
#include "symbols/unwind.h"
#include "symbols/buildid.h"
#include "symbols/elfsyms.h"
#include "util/log.h"
#include "util/openreg.h"
#include "util/vec.h"

/*
 * PERF_REG_X86_* bit numbers (the kernel ABI, asm/perf_regs.h), spelled
 * out because captures from x86_64 may be converted on other machines.
 */
enum {
	PX_AX, PX_BX, PX_CX, PX_DX, PX_SI, PX_DI, PX_BP, PX_SP, PX_IP,
	PX_FLAGS, PX_CS, PX_SS, PX_DS, PX_ES, PX_FS, PX_GS,
	PX_R8, PX_R9, PX_R10, PX_R11, PX_R12, PX_R13, PX_R14, PX_R15,
};

/* x86_64 DWARF register numbers (System V psABI) the code uses by name. */
#define DW_SP 7
#define DW_IP 16

/* By DWARF register number: the perf register it is sampled as. */
static const uint8_t dwarf_to_perf[F2T_X86_64_DWARF_REGS] = {
	PX_AX, PX_DX, PX_CX, PX_BX, PX_SI, PX_DI, PX_BP, PX_SP,
	PX_R8, PX_R9, PX_R10, PX_R11, PX_R12, PX_R13, PX_R14, PX_R15,
	PX_IP,
};

#define X86_64_PAGE 4096u
/*
 * Processes whose sessions are kept.  Each holds its files open (libdwfl
 * keeps the descriptors it is given), so as many as the descriptor limit
 * allows at about 64 files a process, within these bounds.
 */
#define MIN_SESSIONS 8
#define MAX_SESSIONS 256
#define FDS_PER_SESSION 64

enum { MOD_UNTRIED, MOD_OK, MOD_BAD };

struct seg {
	uint64_t vaddr, offset, filesz;
	uint32_t flags;		/* PF_* */
};

/* What the unwinder knows of one module (f2t_module.id indexes them). */
struct modinfo {
	uint8_t state;
	bool vdso;		/* read from the vDSO copy, not a path */
	char *path;		/* the file to open (" (deleted)" stripped) */
	dev_t dev;		/* the file first opened there: reopened, it must */
	ino_t ino;		/* still be that one */
	struct seg *segs;	/* PT_LOAD segments */
	size_t nsegs;
};

/* A module as reported to one session. */
struct rep {
	uint32_t mod_id;
	uint64_t bias;
};

struct session {
	int32_t pid;		/* 0: free */
	uint64_t gen;		/* the maps generation the session was made for */
	uint64_t used;		/* LRU clock */
	Dwfl *dwfl;		/* NULL: nothing to unwind with for this gen */
	struct rep *reps;
	size_t nreps;
	struct f2t_unwinder *u;
	/* The sample being unwound, for the callbacks. */
	const struct f2t_unwind_sample *smp;
	uint64_t regs[F2T_X86_64_DWARF_REGS];
	uint32_t valid;
};

struct f2t_unwinder {
	struct f2t_maps *maps;
	struct f2t_symbolizer *sym;
	char *debug_root;
	Dwfl_Callbacks callbacks;
	struct modinfo *mods;	/* by module id */
	size_t nmods;
	int vdso_fd;		/* a memfd holding the vDSO; -1 until needed, -2 none */
	struct session *sessions;
	size_t nsessions;
	uint64_t clock;
	struct f2t_unwind_stats st;
	bool told;		/* the first failure's reason was logged */
};

int f2t_unwind_x86_64_regs(uint64_t regs_mask, const unsigned char *regs, unsigned int nregs,
			   uint64_t *dwarf, uint32_t *valid)
{
	*valid = 0;
	for (unsigned int r = 0; r < F2T_X86_64_DWARF_REGS; r++) {
		unsigned int bit = dwarf_to_perf[r], idx;

		dwarf[r] = 0;
		if (!(regs_mask & (1ULL << bit)))
			continue;
		/* The sampled registers are packed in bit order. */
		idx = (unsigned int)__builtin_popcountll(regs_mask & ((1ULL << bit) - 1));
		if (idx >= nregs)
			continue;
		dwarf[r] = f2t_perf_u64(regs + (size_t)idx * 8);
		*valid |= 1u << r;
	}
	return (*valid & (1u << DW_IP)) && (*valid & (1u << DW_SP)) ? 0 : -ENOENT;
}

/* ---- modules ---- */

static const char *strip_deleted(const char *name, char *buf, size_t len)
{
	static const char del[] = " (deleted)";
	size_t n = strlen(name), d = sizeof(del) - 1;

	if (n > d && !strcmp(name + n - d, del) && n - d < len) {
		memcpy(buf, name, n - d);
		buf[n - d] = '\0';
		return buf;
	}
	return name;
}

/* The vDSO as a file libdwfl can open: a memfd, made once.  Returns a new fd or -errno. */
static int vdso_fd(struct f2t_unwinder *u)
{
	const void *img;
	size_t len = 0;
	int fd;

	if (u->vdso_fd == -1) {
		u->vdso_fd = -2;
		img = f2t_symbolizer_vdso(u->sym, &len);
		fd = img ? memfd_create("f2t-vdso", MFD_CLOEXEC) : -1;
		if (fd >= 0 && write(fd, img, len) == (ssize_t)len)
			u->vdso_fd = fd;
		else if (fd >= 0)
			close(fd);
	}
	if (u->vdso_fd < 0)
		return -ENOENT;
	/* libdwfl takes the fd it is given: a duplicate (it reads with pread). */
	fd = fcntl(u->vdso_fd, F_DUPFD_CLOEXEC, 0);
	return fd < 0 ? -errno : fd;
}

/*
 * A new fd on module MI's file, or -errno.  The name comes from the
 * capture: opened as util/openreg.h says, and only while it is the file
 * first read there (-ESTALE otherwise).
 */
static int module_fd(struct f2t_unwinder *u, struct modinfo *mi)
{
	struct stat st;
	int fd;

	if (mi->vdso)
		return vdso_fd(u);
	fd = f2t_open_reg(AT_FDCWD, mi->path, F2T_OPEN_NOFOLLOW, &st);
	if (fd < 0)
		return fd;
	if (mi->state == MOD_UNTRIED) {
		mi->dev = st.st_dev;
		mi->ino = st.st_ino;
	} else if (st.st_dev != mi->dev || st.st_ino != mi->ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* Checks that FD is the x86_64 ELF that ran (build-id) and copies its PT_LOADs. */
static int read_module(struct modinfo *mi, int fd, const struct f2t_build_id *expect)
{
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	struct f2t_build_id have = { 0 };
	GElf_Ehdr eh;
	size_t nph = 0;
	int err = 0;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) || elf_getphdrnum(elf, &nph)) {
		err = -ENOEXEC;
		goto out;
	}
	/* Another file at the same path has other CFI: no unwinding beats a wrong one. */
	if (expect && expect->len &&
	    (f2t_build_id_read(elf, &have) || !f2t_build_id_eq(&have, expect))) {
		err = -ESTALE;
		goto out;
	}
	mi->segs = calloc(nph ? nph : 1, sizeof(*mi->segs));
	if (!mi->segs) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		mi->segs[mi->nsegs++] = (struct seg){ ph.p_vaddr, ph.p_offset, ph.p_filesz,
						      ph.p_flags };
	}
	if (!mi->nsegs)
		err = -ENOEXEC;
out:
	if (elf)
		elf_end(elf);
	return err;
}

/* What we know of MOD, looked at once. */
static struct modinfo *module_info(struct f2t_unwinder *u, struct f2t_module *mod)
{
	struct modinfo *mi;
	char buf[4096];
	int fd, err;

	if (mod->id >= u->nmods) {
		size_t old = u->nmods;

		if (f2t_vec_reserve(&u->mods, &u->nmods, (size_t)mod->id + 1, 64))
			return NULL;
		memset(u->mods + old, 0, (u->nmods - old) * sizeof(*u->mods));
	}
	mi = &u->mods[mod->id];
	if (mi->state != MOD_UNTRIED)
		return mi->state == MOD_OK ? mi : NULL;
	if (!strcmp(mod->name, "[vdso]")) {
		mi->vdso = true;
	} else if (mod->name[0] == '/') {
		mi->path = strdup(strip_deleted(mod->name, buf, sizeof(buf)));
		if (!mi->path)
			goto bad;
	} else {
		goto bad;	/* anonymous memory, [heap], [stack], JIT code */
	}
	fd = module_fd(u, mi);	/* notes which file it is, the state being untried */
	if (fd < 0)
		goto bad;
	err = read_module(mi, fd, mi->vdso ? NULL : f2t_symbolizer_build_id(u->sym, mod));
	close(fd);
	if (err)
		goto bad;
	mi->state = MOD_OK;
	return mi;
bad:
	mi->state = MOD_BAD;
	return NULL;
}

/* The load bias of mapping M of module MI: run-time address minus link-time address. */
static bool mapping_bias(const struct modinfo *mi, const struct f2t_mapping *m, uint64_t *bias)
{
	const struct seg *best = NULL;

	for (size_t i = 0; i < mi->nsegs; i++) {
		const struct seg *s = &mi->segs[i];
		uint64_t page = s->offset & ~(uint64_t)(X86_64_PAGE - 1);

		/*
		 * The kernel maps a segment from its page-aligned offset.  Two
		 * segments may share a file page (.rodata's last, .data's
		 * first): a mapping starting there is the later one's.
		 */
		if (m->pgoff >= page && m->pgoff < s->offset + s->filesz &&
		    (!best || page > (best->offset & ~(uint64_t)(X86_64_PAGE - 1))))
			best = s;
	}
	if (best)
		*bias = m->start - m->pgoff - (best->vaddr - best->offset);
	return best != NULL;
}

/*
 * Reads 8 bytes at ADDR of process PID from the file mapped there, when
 * that part of the file is what the memory holds: a segment nobody writes.
 */
static int read_file_word(struct f2t_unwinder *u, int32_t pid, uint64_t addr, uint64_t *val)
{
	const struct f2t_mapping *m = f2t_maps_find(u->maps, pid, addr);
	struct modinfo *mi = m ? module_info(u, m->mod) : NULL;
	uint64_t bias, vaddr;
	int fd, err = -EFAULT;

	if (!mi || !mapping_bias(mi, m, &bias))
		return -EFAULT;
	vaddr = addr - bias;
	for (size_t i = 0; i < mi->nsegs; i++) {
		const struct seg *s = &mi->segs[i];

		if ((s->flags & PF_W) || vaddr < s->vaddr || vaddr - s->vaddr > s->filesz ||
		    s->filesz - (vaddr - s->vaddr) < 8)
			continue;
		fd = module_fd(u, mi);
		if (fd < 0)
			return fd;
		if (pread(fd, val, 8, (off_t)(s->offset + (vaddr - s->vaddr))) == 8)
			err = 0;
		close(fd);
		break;
	}
	return err;
}

/* ---- libdwfl callbacks ---- */

static int find_no_elf(Dwfl_Module *mod, void **userdata, const char *modname,
		       Dwarf_Addr base, char **file_name, Elf **elfp)
{
	return -1;	/* every module is reported with its file already open */
}

/* Does MOD's own file carry .eh_frame (the unwind tables of its loaded code)? */
static bool has_eh_frame(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (gelf_getshdr(scn, &sh) && (name = elf_strptr(elf, shstrndx, sh.sh_name)) &&
		    !strcmp(name, ".eh_frame"))
			return true;
	}
	return false;
}

/*
 * .debug_frame, when .eh_frame does not cover a PC: the separate debug
 * file by build-id under our debug root (no network lookups, unlike the
 * standard finder with debuginfod configured).
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	/*
	 * Only for files without .eh_frame: where it does not cover a PC
	 * (the outermost frames, PLT stubs) a debug file says no more, and
	 * opening one (decompressing its sections) per process is slow.
	 */
	const struct f2t_unwinder *u = *userdata;
	const unsigned char *bits;
	struct f2t_build_id id = { 0 };
	char path[4096];
	GElf_Addr at;
	int len = dwfl_module_build_id(mod, &bits, &at), fd;

	if (!u || len < 2 || len > F2T_BUILD_ID_MAX || has_eh_frame(mod))
		return -1;
	id.len = (uint8_t)len;
	memcpy(id.b, bits, (size_t)len);
	fd = f2t_elfsyms_open_debug(u->debug_root, &id, path, sizeof(path));
	if (fd < 0)
		return -1;
	*debuginfo_file_name = strdup(path);
	return fd;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	return 0;	/* never iterated: get_thread hands out the sample's thread */
}

static bool get_thread(Dwfl *dwfl, pid_t tid, void *arg, void **thread_argp)
{
	*thread_argp = arg;
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct session *ss = arg;
	const struct f2t_unwind_sample *smp = ss->smp;
	uint64_t sp = ss->regs[DW_SP];

	/* The stack copy starts at the sampled stack pointer. */
	if (smp && addr >= sp && addr - sp <= smp->stack_len && smp->stack_len - (addr - sp) >= 8) {
		*result = f2t_perf_u64(smp->stack + (addr - sp));
		return true;
	}
	return smp && !read_file_word(ss->u, smp->pid, addr, result);
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct session *ss = arg;

	/* One at a time: unsampled registers stay unknown rather than 0. */
	for (unsigned int r = 0; r < F2T_X86_64_DWARF_REGS; r++)
		if ((ss->valid & (1u << r)) &&
		    !dwfl_thread_state_registers(thread, (int)r, 1, &ss->regs[r]))
			return false;
	dwfl_thread_state_register_pc(thread, ss->regs[DW_IP]);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.get_thread = get_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* ---- sessions ---- */

static void session_reset(struct session *ss)
{
	if (ss->dwfl)
		dwfl_end(ss->dwfl);
	free(ss->reps);
	ss->dwfl = NULL;
	ss->reps = NULL;
	ss->nreps = 0;
	ss->pid = 0;
}

/* The ELF files mapped in V[0..N) at their biases, each once.  Return: 0 or -ENOMEM. */
static int collect(struct f2t_unwinder *u, const struct f2t_mapping *v, size_t n,
		   struct rep **out, size_t *nout)
{
	struct rep *reps = NULL;
	size_t nreps = 0, cap = 0;

	for (size_t i = 0; i < n; i++) {
		const struct modinfo *mi = module_info(u, v[i].mod);
		uint64_t bias;
		size_t j;

		if (!mi || !mapping_bias(mi, &v[i], &bias))
			continue;
		/*
		 * Once per place: a file mapped twice (read as data, say) is
		 * reported twice; the wrong one is never asked about.
		 */
		for (j = 0; j < nreps; j++)
			if (reps[j].mod_id == v[i].mod->id && reps[j].bias == bias)
				break;
		if (j < nreps)
			continue;
		if (f2t_vec_reserve(&reps, &cap, nreps + 1, 16)) {
			free(reps);
			return -ENOMEM;
		}
		reps[nreps++] = (struct rep){ v[i].mod->id, bias };
	}
	*out = reps;
	*nout = nreps;
	return 0;
}

/* Reports SS->reps[FROM..) to SS->dwfl, in a reporting round of its own. */
static int report(struct f2t_unwinder *u, struct session *ss, const struct f2t_mapping *v,
		  size_t n, size_t from)
{
	if (from)
		dwfl_report_begin_add(ss->dwfl);	/* keeps the modules (and CFI) it has */
	else
		dwfl_report_begin(ss->dwfl);
	for (size_t i = from; i < ss->nreps; i++) {
		struct f2t_module *mod = NULL;
		struct modinfo *mi;
		Dwfl_Module *dm;
		void **ud;
		int fd;

		for (size_t k = 0; k < n && !mod; k++)
			if (v[k].mod->id == ss->reps[i].mod_id)
				mod = v[k].mod;
		mi = &u->mods[ss->reps[i].mod_id];
		fd = mod ? module_fd(u, mi) : -1;
		if (fd < 0)
			continue;
		/* ET_DYN: the bias is added to p_vaddr; ET_EXEC: libdwfl ignores it (0). */
		dm = dwfl_report_elf(ss->dwfl, mod->name, mi->vdso ? "[vdso]" : mi->path, fd,
				     ss->reps[i].bias, true);
		if (!dm) {
			close(fd);	/* not consumed on failure (overlaps, say) */
			continue;
		}
		if (dwfl_module_info(dm, &ud, NULL, NULL, NULL, NULL, NULL, NULL))
			*ud = u;	/* for find_debuginfo */
	}
	return dwfl_report_end(ss->dwfl, NULL, NULL) ? -ENOMEM : 0;
}

/* A Dwfl for SS->pid with SS->reps reported.  Return: 0 or negative errno. */
static int session_build(struct f2t_unwinder *u, struct session *ss,
			 const struct f2t_mapping *v, size_t n)
{
	int err;

	ss->dwfl = dwfl_begin(&u->callbacks);
	if (!ss->dwfl)
		return -ENOMEM;
	err = report(u, ss, v, n, 0);
	if (err)
		goto out;
	/* NULL ELF: the machine comes from the modules (none: nothing to unwind). */
	if (!dwfl_attach_state(ss->dwfl, NULL, ss->pid, &thread_callbacks, ss))
		err = -ENOEXEC;
	u->st.sessions++;
out:
	if (err) {
		if (!u->told)
			f2t_info("cannot unwind process %d: %s", (int)ss->pid, dwfl_errmsg(-1));
		u->told = true;
		dwfl_end(ss->dwfl);
		ss->dwfl = NULL;
	}
	return err;
}

static bool has_rep(const struct rep *reps, size_t n, const struct rep *r)
{
	for (size_t i = 0; i < n; i++)
		if (reps[i].mod_id == r->mod_id && reps[i].bias == r->bias)
			return true;
	return false;
}

/*
 * SS (of the same process) had OLD; the process now maps NEW: when no file
 * went away or moved (a library loaded, mostly), the new ones are added to
 * the session.  Return: true when SS is up to date, NEW then owned by SS.
 */
static bool session_update(struct f2t_unwinder *u, struct session *ss, struct rep *reps,
			   size_t nreps, const struct f2t_mapping *v, size_t n)
{
	size_t old = ss->nreps, k = old;
	struct rep *r;

	for (size_t i = 0; i < old; i++)
		if (!has_rep(reps, nreps, &ss->reps[i]))
			return false;
	if (nreps == old) {
		free(reps);
		return true;
	}
	/* The old ones first, the additions after: report() takes those from OLD. */
	r = realloc(ss->reps, nreps * sizeof(*r));
	if (!r)
		return false;
	ss->reps = r;
	for (size_t i = 0; i < nreps; i++)
		if (!has_rep(r, old, &reps[i]))
			r[k++] = reps[i];
	ss->nreps = k;
	free(reps);
	if (report(u, ss, v, n, old)) {
		session_reset(ss);
		return false;
	}
	return true;
}

/* PID's session for its current mappings, or NULL when it cannot unwind. */
static struct session *session_get(struct f2t_unwinder *u, int32_t pid)
{
	struct session *ss = NULL;
	const struct f2t_mapping *v;
	struct rep *reps;
	size_t n, nreps;
	uint64_t gen;

	v = f2t_maps_list(u->maps, pid, &n, &gen);
	for (size_t i = 0; i < u->nsessions && !ss; i++)
		if (u->sessions[i].pid == pid)
			ss = &u->sessions[i];
	for (size_t i = 0; i < u->nsessions && !ss; i++)
		if (!u->sessions[i].pid)
			ss = &u->sessions[i];
	if (!ss) {
		ss = &u->sessions[0];
		for (size_t i = 1; i < u->nsessions; i++)
			if (u->sessions[i].used < ss->used)
				ss = &u->sessions[i];
	}
	ss->used = ++u->clock;
	if (ss->pid == pid && ss->gen == gen)
		return ss->dwfl ? ss : NULL;
	/* New mappings: anonymous ones (JIT code, say) change no file's place. */
	if (collect(u, v, n, &reps, &nreps))
		return NULL;
	if (ss->pid == pid && ss->dwfl && session_update(u, ss, reps, nreps, v, n)) {
		ss->gen = gen;
		return ss;
	}
	if (ss->pid == pid && ss->dwfl)
		u->st.rebuilt++;
	else if (ss->pid && ss->pid != pid)
		u->st.evicted++;
	session_reset(ss);
	ss->pid = pid;
	ss->gen = gen;
	ss->reps = reps;
	ss->nreps = nreps;
	ss->u = u;
	/* A failure is kept for this gen: not retried on every sample. */
	return session_build(u, ss, v, n) ? NULL : ss;
}

/* ---- unwinding ---- */

struct walk {
	uint64_t *ips;
	bool *call;
	size_t n, max;
};

static int frame_cb(Dwfl_Frame *f, void *arg)
{
	struct walk *w = arg;
	Dwarf_Addr pc;
	bool activation;

	/* A zero return address is where a stack ends (below _start). */
	if (!dwfl_frame_pc(f, &pc, &activation) || !pc)
		return DWARF_CB_ABORT;
	w->ips[w->n] = pc;
	w->call[w->n] = !activation;
	w->n++;
	return w->n < w->max ? DWARF_CB_OK : DWARF_CB_ABORT;
}

/*
 * How many sessions to keep: the soft descriptor limit is raised to the
 * hard one (capped) first, since every process's files stay open while it
 * is unwound and many processes interleave in a system-wide recording.
 */
static size_t session_budget(void)
{
	struct rlimit rl;
	size_t n;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return MIN_SESSIONS;
	if (rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < 65536 &&
	    (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > rl.rlim_cur)) {
		rlim_t want = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > 65536 ? 65536 : rl.rlim_max;
		struct rlimit nl = { want, rl.rlim_max };

		if (!setrlimit(RLIMIT_NOFILE, &nl))
			rl.rlim_cur = want;
	}
	n = rl.rlim_cur == RLIM_INFINITY ? MAX_SESSIONS
					 : (size_t)(rl.rlim_cur > 256 ? rl.rlim_cur - 256 : 0) /
					   FDS_PER_SESSION;
	return n < MIN_SESSIONS ? MIN_SESSIONS : n > MAX_SESSIONS ? MAX_SESSIONS : n;
}

struct f2t_unwinder *f2t_unwinder_new(const char *arch, struct f2t_maps *maps,
				      struct f2t_symbolizer *sym, const char *debug_root)
{
	struct f2t_unwinder *u;

	if (!arch || strcmp(arch, "x86_64"))
		return NULL;
	u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->nsessions = session_budget();
	u->sessions = calloc(u->nsessions, sizeof(*u->sessions));
	u->debug_root = strdup(debug_root ? debug_root : F2T_DEBUG_ROOT);
	if (!u->debug_root || !u->sessions) {
		free(u->sessions);
		free(u->debug_root);
		free(u);
		return NULL;
	}
	elf_version(EV_CURRENT);
	u->maps = maps;
	u->sym = sym;
	u->vdso_fd = -1;
	u->callbacks.find_elf = find_no_elf;
	u->callbacks.find_debuginfo = find_debuginfo;
	return u;
}

void f2t_unwinder_free(struct f2t_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; u->sessions && i < u->nsessions; i++)
		session_reset(&u->sessions[i]);
	for (size_t i = 0; i < u->nmods; i++) {
		free(u->mods[i].path);
		free(u->mods[i].segs);
	}
	free(u->mods);
	free(u->sessions);
	if (u->vdso_fd >= 0)
		close(u->vdso_fd);
	free(u->debug_root);
	free(u);
}

size_t f2t_unwind(struct f2t_unwinder *u, const struct f2t_unwind_sample *smp, uint64_t *ips,
		  bool *call, size_t max)
{
	uint64_t regs[F2T_X86_64_DWARF_REGS];
	struct walk w = { ips, call, 0, max };
	struct session *ss;
	uint32_t valid;
	int err;

	if (w.max > F2T_UNWIND_MAX_FRAMES)
		w.max = F2T_UNWIND_MAX_FRAMES;
	err = f2t_unwind_x86_64_regs(smp->regs_mask, smp->regs, smp->nregs, regs, &valid);
	if (!w.max || !(valid & (1u << DW_IP)))
		return 0;
	if (smp->episode)
		u->st.episodes++;
	else
		u->st.samples++;
	/* A 32-bit process's registers are not x86_64's: its leaf only. */
	if (err || smp->abi != PERF_SAMPLE_REGS_ABI_64 || smp->pid <= 0)
		goto leaf;
	ss = session_get(u, smp->pid);
	if (!ss)
		goto leaf;
	ss->smp = smp;
	memcpy(ss->regs, regs, sizeof(regs));
	ss->valid = valid;
	/* Its return value says why the walk ended; the frames seen are what counts. */
	dwfl_getthread_frames(ss->dwfl, smp->tid > 0 ? smp->tid : smp->pid, frame_cb, &w);
	ss->smp = NULL;
	if (w.n >= 2)
		return w.n;
leaf:
	if (smp->episode)
		u->st.episodes_leaf_only++;
	else
		u->st.leaf_only++;
	ips[0] = regs[DW_IP];
	call[0] = false;
	return 1;
}

void f2t_unwinder_stats(const struct f2t_unwinder *u, struct f2t_unwind_stats *st)
{
	*st = u->st;
}
