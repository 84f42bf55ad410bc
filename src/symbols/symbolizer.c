// SPDX-License-Identifier: MIT
/*
 * The symbolizer: per-module symbol tables loaded on first use and kept for
 * the whole conversion (a module is a file with a build-id, so its symbols
 * never change); per-process JIT maps parsed on first use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/utsname.h>

#include <elf.h>

#include "symbols/elfsyms.h"
#include "symbols/jitmap.h"
#include "symbols/kallsyms.h"
#include "symbols/symbolizer.h"
#include "util/hash.h"
#include "util/log.h"
#include "util/sort.h"
#include "util/vec.h"

struct bid_ent {
	const char *path;	/* into the recording's text */
	size_t len;
	struct f2t_build_id id;
};

struct jit_ent {
	int32_t pid;
	const struct f2t_pid_text *text;
	struct f2t_jitmap *map;	/* parsed on first use */
	bool tried;
};

/* Kernel modules remembered (kernel_module()). */
#define KMOD_CACHE 16

struct f2t_symbolizer {
	struct f2t_maps *maps;
	char *debug_root;
	struct f2t_ksyms *ksyms;
	/*
	 * The modules of kernel frames met lately, by their kallsyms entry: a
	 * module's name (a damaged table's can be 64 KB) is measured, hashed
	 * and compared once, not for each frame.
	 */
	struct {
		const struct f2t_kmod *km;
		struct f2t_module *mod;
	} kmods[KMOD_CACHE];
	struct f2t_build_id kernel_bid;
	bool same_kernel;		/* this machine runs the recorded kernel */
	struct bid_ent *bids;
	size_t nbids;
	struct jit_ent *jits;
	size_t njits;
	struct f2t_sym_stats st;
};

static int by_path(const void *a, const void *b)
{
	const struct bid_ent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->path, y->path, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* "HEX PATH\n" lines: the build-ids the recorder read for the mapped files. */
static int load_build_ids(struct f2t_symbolizer *s, const struct f2t_text *t)
{
	const char *p = t->s, *end = p + t->len;
	size_t cap = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sp;

		if (!nl)
			nl = end;
		sp = memchr(p, ' ', (size_t)(nl - p));
		if (sp) {
			struct bid_ent e = { .path = sp + 1, .len = (size_t)(nl - sp - 1) };

			if (!f2t_build_id_parse(p, (size_t)(sp - p), &e.id)) {
				if (f2t_vec_reserve(&s->bids, &cap, s->nbids + 1, 64))
					return -ENOMEM;
				s->bids[s->nbids++] = e;
			}
		}
		p = nl + 1;
	}
	f2t_sort(s->bids, s->nbids, sizeof(*s->bids), by_path);
	return 0;
}

static const struct f2t_build_id *recorded_build_id(const struct f2t_symbolizer *s,
						    const char *path)
{
	struct bid_ent key = { .path = path, .len = strlen(path) };
	const struct bid_ent *hit;

	if (!s->nbids)
		return NULL;
	hit = bsearch(&key, s->bids, s->nbids, sizeof(*s->bids), by_path);
	return hit ? &hit->id : NULL;
}

/* Is the kernel we run the recorded one (so its vDSO is the recorded one)? */
static bool same_kernel(const char *kernel)
{
	struct utsname u;

	return kernel && *kernel && uname(&u) == 0 && !strcmp(kernel, u.release);
}

static int load_kernel(struct f2t_symbolizer *s, const struct f2t_recording *rec)
{
	struct f2t_text kallsyms = f2t_recording_kallsyms(rec);

	if (rec->kernel_build_id)
		f2t_build_id_parse(rec->kernel_build_id, strlen(rec->kernel_build_id),
				   &s->kernel_bid);
	s->same_kernel = same_kernel(rec->info.kernel);
	if (!kallsyms.s)
		return 0;
	s->ksyms = f2t_ksyms_parse(kallsyms.s, kallsyms.len);
	return s->ksyms ? 0 : -ENOMEM;
}

static int load_jits(struct f2t_symbolizer *s, const struct f2t_recording *rec)
{
	if (!rec->njit_maps)
		return 0;
	s->jits = calloc(rec->njit_maps, sizeof(*s->jits));
	if (!s->jits)
		return -ENOMEM;
	for (size_t i = 0; i < rec->njit_maps; i++)
		s->jits[i] = (struct jit_ent){ .pid = rec->jit_maps[i].pid,
					       .text = &rec->jit_maps[i] };
	s->njits = rec->njit_maps;
	return 0;
}

struct f2t_symbolizer *f2t_symbolizer_new(const struct f2t_recording *rec, struct f2t_maps *maps,
					  const char *debug_root)
{
	struct f2t_symbolizer *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return NULL;
	s->maps = maps;
	s->debug_root = strdup(debug_root ? debug_root : F2T_DEBUG_ROOT);
	err = s->debug_root ? load_kernel(s, rec) : -ENOMEM;
	if (!err && rec->build_ids.s)
		err = load_build_ids(s, &rec->build_ids);
	if (!err)
		err = load_jits(s, rec);
	if (err) {
		f2t_symbolizer_free(s);
		errno = -err;
		return NULL;
	}
	return s;
}

void f2t_symbolizer_free(struct f2t_symbolizer *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->njits; i++)
		f2t_jitmap_free(s->jits[i].map);
	free(s->jits);
	free(s->bids);
	f2t_ksyms_free(s->ksyms);
	free(s->debug_root);
	free(s);
}

void f2t_symbolizer_free_module_syms(void *syms)
{
	f2t_elfsyms_free(syms);
}

void f2t_symbolizer_stats(const struct f2t_symbolizer *s, struct f2t_sym_stats *st)
{
	*st = s->st;
}

/* The module standing for kernel module (or kernel) KM, made once. */
static struct f2t_module *kernel_module(struct f2t_symbolizer *s, const struct f2t_kmod *km)
{
	size_t i = (size_t)(f2t_hash_u64((uintptr_t)km) % KMOD_CACHE);

	if (s->kmods[i].km != km || !s->kmods[i].mod) {
		bool kernel = !strcmp(km->name, "[kernel.kallsyms]");

		s->kmods[i].km = km;
		s->kmods[i].mod = f2t_maps_module(s->maps, km->name, strlen(km->name),
						  kernel ? &s->kernel_bid : NULL);
	}
	return s->kmods[i].mod;
}

/* F is in MOD (NULL: out of memory making it, as no module). */
static void frame_module(struct f2t_frame *f, const struct f2t_module *mod)
{
	if (!mod)
		return;
	f->mod = mod;
	f->mod_id = mod->id;
	f->build_id = mod->build_id.b;
	f->build_id_len = mod->build_id.len;
}

static void symbolize_kernel(struct f2t_symbolizer *s, uint64_t ip, bool call,
			     struct f2t_frame *f)
{
	const struct f2t_kmod *km = NULL;
	uint64_t off;
	const char *name = f2t_ksyms_lookup(s->ksyms, ip - call, &km, &off);

	f->kernel = true;
	f->offset = ip;
	if (!km)
		km = f2t_ksyms_module(s->ksyms, ip);
	if (km) {
		f->module = km->name;
		frame_module(f, kernel_module(s, km));
		f->map_start = km->start;
		f->map_len = km->end - km->start;
		/* kallsyms addresses are run-time ones: the module maps 1:1. */
		f->map_vaddr = km->start;
	} else {
		f->module = "[kernel.kallsyms]";
	}
	f->func = name;
}

static struct f2t_jitmap *jit_map(struct f2t_symbolizer *s, int32_t pid)
{
	for (size_t i = 0; i < s->njits; i++) {
		struct jit_ent *j = &s->jits[i];

		if (j->pid != pid)
			continue;
		if (!j->tried) {
			j->tried = true;
			j->map = f2t_jitmap_parse(j->text->text, j->text->len);
		}
		return j->map;
	}
	return NULL;
}

/* The vDSO of this process: the recorded one when the kernel is the same. */
static int open_vdso(struct f2t_elfsyms **out)
{
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;

	if (!img)
		return -ENOENT;
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOEXEC;
	return f2t_elfsyms_open_mem(img, eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize, out);
}

static const char *strip_deleted(const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	static const char del[] = " (deleted)";

	if (n > sizeof(del) - 1 && !strcmp(name + n - (sizeof(del) - 1), del) &&
	    n - (sizeof(del) - 1) < len) {
		memcpy(buf, name, n - (sizeof(del) - 1));
		buf[n - (sizeof(del) - 1)] = '\0';
		return buf;
	}
	return name;
}

static void load_module_syms(struct f2t_symbolizer *s, struct f2t_module *mod)
{
	struct f2t_elfsyms *e = NULL;
	char buf[4096];
	const char *path;
	int err;

	mod->syms_tried = true;
	if (!strcmp(mod->name, "[vdso]")) {
		err = s->same_kernel ? open_vdso(&e) : -ENOENT;
	} else if (mod->name[0] == '/') {
		path = strip_deleted(mod->name, buf, sizeof(buf));
		if (!mod->build_id.len) {
			const struct f2t_build_id *rec = recorded_build_id(s, path);

			if (rec)
				mod->build_id = *rec;
		}
		err = f2t_elfsyms_open(path, &mod->build_id, s->debug_root, &e);
		if (err == -ESTALE) {
			s->st.stale_files++;
			f2t_warn("%s changed since it was recorded (build-id differs): its frames show as module+offset",
				 path);
		} else if (err == -ENOENT || err == -EACCES) {
			s->st.missing_files++;
			f2t_info("%s: %s; its frames show as module+offset", path, strerror(-err));
		}
		if (!err)
			s->st.files++;
	} else {
		err = -ENOENT;
	}
	mod->syms = e;
	mod->syms_err = err;
}

const struct f2t_build_id *f2t_symbolizer_build_id(struct f2t_symbolizer *s,
						   struct f2t_module *mod)
{
	char buf[4096];

	if (!mod->build_id.len && mod->name[0] == '/') {
		const struct f2t_build_id *rec =
			recorded_build_id(s, strip_deleted(mod->name, buf, sizeof(buf)));

		if (rec)
			mod->build_id = *rec;
	}
	return &mod->build_id;
}

const void *f2t_symbolizer_vdso(const struct f2t_symbolizer *s, size_t *len)
{
	const unsigned char *img = (const void *)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;

	/* Another kernel's vDSO is other code: better no unwinding than wrong. */
	if (!s->same_kernel || !img)
		return NULL;
	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	*len = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	return img;
}

static bool anonymous(const char *name)
{
	return !name[0] || !strncmp(name, "//anon", 6) || !strncmp(name, "[anon", 5) ||
	       !strcmp(name, "[heap]") || !strncmp(name, "[stack", 6) ||
	       !strncmp(name, "/memfd:", 7);
}

static void symbolize_user(struct f2t_symbolizer *s, int32_t pid, uint64_t ip, bool call,
			   struct f2t_frame *f)
{
	const struct f2t_mapping *m = f2t_maps_find(s->maps, pid, ip);
	struct f2t_module *mod;
	uint64_t vaddr, off;

	if (!m || anonymous(m->mod->name)) {
		struct f2t_jitmap *j = jit_map(s, pid);
		const char *name = j ? f2t_jitmap_lookup(j, ip - call, &off) : NULL;

		if (name) {
			f->func = name;
			f->module = "[jit]";
			f->offset = ip;
			return;
		}
		if (!m) {
			f->module = "[unknown]";
			f->offset = ip;
			s->st.unmapped++;
			return;
		}
	}
	mod = m->mod;
	if (!mod->syms_tried)
		load_module_syms(s, mod);
	frame_module(f, mod);
	f->module = mod->name;
	f->map_start = m->start;
	f->map_len = m->end - m->start;
	vaddr = ip - m->start + m->pgoff;
	if (mod->syms)
		f2t_elfsyms_vaddr(mod->syms, vaddr, &vaddr);
	f->offset = vaddr;
	f->map_vaddr = vaddr - (ip - m->start);
	if (!f->func && mod->syms)
		f->func = f2t_elfsyms_lookup(mod->syms, vaddr - call, &off);
}

void f2t_symbolize(struct f2t_symbolizer *s, int32_t pid, uint64_t ip, bool kernel, bool call,
		   struct f2t_frame *f)
{
	memset(f, 0, sizeof(*f));
	f->ip = ip;
	s->st.frames++;
	if (kernel)
		symbolize_kernel(s, ip, call, f);
	else
		symbolize_user(s, pid, ip, call, f);
	if (f->func)
		s->st.named++;
}
