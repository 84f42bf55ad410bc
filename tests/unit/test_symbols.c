// SPDX-License-Identifier: MIT
/*
 * Symbol lookup: on a small ELF the test builds with the system compiler
 * (functions at addresses nm reports, a C++ name, a static function only
 * .symtab knows, a separate debug file found by build-id, a changed file
 * refused), on kallsyms text, on a JIT map, and the process address-space
 * model those lookups go through.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "symbols/maps.h"
#include "symbols/buildid.h"
#include "symbols/elfsyms.h"
#include "symbols/jitmap.h"
#include "symbols/kallsyms.h"

static char dir[] = "/tmp/f2t-symtest.XXXXXX";
static bool built;

static const char source[] =
	"int alpha(int x) { return x * 3 + 1; }\n"
	"int beta(int x) { return alpha(x) + 2; }\n"
	"static __attribute__((noinline, used)) int hidden_fn(int x) { return x - 7; }\n"
	"int cxx(int x) __asm__(\"_ZN3foo3barEi\");\n"
	"int cxx(int x) { return hidden_fn(x) * 5; }\n"
	/* Two versions of one function, as glibc defines clock_nanosleep. */
	"int gamma_old(int x) { return x + 11; }\n"
	"__asm__(\".symver gamma_old, gamma@VERS_1, remove\");\n"
	"int gamma_new(int x) { return x + 12; }\n"
	"__asm__(\".symver gamma_new, gamma@@VERS_2, remove\");\n";

static const char version_script[] =
	"VERS_1 { global: gamma; };\n"
	"VERS_2 { global: *; } VERS_1;\n";

static int sh(const char *fmt, ...)
{
	char cmd[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

static int build(void **state)
{
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	f = fopen(strcat(strcpy((char[256]){ 0 }, dir), "/src.c"), "w");
	if (!f)
		return -1;
	fputs(source, f);
	fclose(f);
	f = fopen(strcat(strcpy((char[256]){ 0 }, dir), "/v.map"), "w");
	if (!f)
		return -1;
	fputs(version_script, f);
	fclose(f);
	/* Without a compiler (or binutils) the ELF tests skip; the rest still run. */
	built = sh("cd %s && cc -shared -fPIC -O1 -Wl,--build-id=sha1 -Wl,--version-script=v.map"
		   " -o lib.so src.c 2>/dev/null"
		   " && strip --strip-all -o stripped.so lib.so"
		   " && nm lib.so > nm.txt", dir) == 0;
	return 0;
}

static int cleanup(void **state)
{
	sh("rm -rf %s", dir);
	return 0;
}

static uint64_t nm_addr(const char *name)
{
	char path[300], line[256];
	uint64_t addr = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/nm.txt", dir);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char sym[200];
		unsigned long long a;
		char type;

		if (sscanf(line, "%llx %c %199s", &a, &type, sym) == 3 && !strcmp(sym, name))
			addr = a;
	}
	fclose(f);
	assert_true(addr != 0);
	return addr;
}

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static int build_id_of_path(const char *path, struct f2t_build_id *id)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err;

	assert_true(fd >= 0);
	err = f2t_build_id_of_fd(fd, id);
	close(fd);
	return err;
}

static void test_elf_lookup(void **state)
{
	char path[300];
	struct f2t_elfsyms *e;
	uint64_t off, a, b, c, h, v;

	if (!built)
		skip();
	path_of(path, sizeof(path), "lib.so");
	assert_int_equal(f2t_elfsyms_open(path, NULL, "/nonexistent", &e), 0);
	assert_string_equal(f2t_elfsyms_source(e), "symtab");
	a = nm_addr("alpha");
	b = nm_addr("beta");
	c = nm_addr("_ZN3foo3barEi");
	h = nm_addr("hidden_fn");
	assert_string_equal(f2t_elfsyms_lookup(e, a, &off), "alpha");
	assert_int_equal(off, 0);
	assert_string_equal(f2t_elfsyms_lookup(e, a + 3, &off), "alpha");
	assert_int_equal(off, 3);
	assert_string_equal(f2t_elfsyms_lookup(e, b + 1, &off), "beta");
	/* C++ names come out demangled */
	assert_string_equal(f2t_elfsyms_lookup(e, c + 2, &off), "foo::bar(int)");
	/* a static function: in .symtab only */
	assert_string_equal(f2t_elfsyms_lookup(e, h, &off), "hidden_fn");
	/* below every function: nothing */
	assert_null(f2t_elfsyms_lookup(e, 0x10, &off));
	/* the text segment maps file offsets to the same addresses in a plain .so */
	assert_int_equal(f2t_elfsyms_vaddr(e, a, &v), 0);
	assert_int_equal(v, a);
	assert_int_equal(f2t_elfsyms_build_id(e)->len, 20);
	f2t_elfsyms_free(e);
}

/* A versioned definition is named for its function: "gamma@VERS_1" is gamma. */
static void test_elf_symbol_versions(void **state)
{
	char path[300];
	struct f2t_elfsyms *e;
	uint64_t off;

	if (!built)
		skip();
	path_of(path, sizeof(path), "lib.so");
	assert_int_equal(f2t_elfsyms_open(path, NULL, "/nonexistent", &e), 0);
	assert_string_equal(f2t_elfsyms_lookup(e, nm_addr("gamma@VERS_1") + 1, &off), "gamma");
	assert_int_equal(off, 1);
	assert_string_equal(f2t_elfsyms_lookup(e, nm_addr("gamma@@VERS_2"), &off), "gamma");
	assert_string_equal(f2t_elfsyms_lookup(e, nm_addr("alpha"), &off), "alpha");
	f2t_elfsyms_free(e);
}

static void test_elf_build_ids(void **state)
{
	char path[300];
	struct f2t_build_id id, wrong;
	struct f2t_elfsyms *e;
	char hex[2 * F2T_BUILD_ID_MAX + 1];

	if (!built)
		skip();
	path_of(path, sizeof(path), "lib.so");
	assert_int_equal(build_id_of_path(path, &id), 0);
	assert_int_equal(id.len, 20);
	f2t_build_id_hex(&id, hex, sizeof(hex));
	assert_int_equal(strlen(hex), 40);
	assert_int_equal(f2t_build_id_parse(hex, 40, &wrong), 0);
	assert_true(f2t_build_id_eq(&wrong, &id));
	assert_int_equal(f2t_build_id_parse("12g4", 4, &wrong), -EINVAL);
	/* The recorded build-id matches: trusted. */
	assert_int_equal(f2t_elfsyms_open(path, &id, NULL, &e), 0);
	f2t_elfsyms_free(e);
	/* The file changed since recording: refused. */
	wrong = id;
	wrong.b[0] ^= 0xff;
	assert_int_equal(f2t_elfsyms_open(path, &wrong, NULL, &e), -ESTALE);
	assert_null(e);
	/* Not there, not ELF. */
	path_of(path, sizeof(path), "nope.so");
	assert_int_equal(f2t_elfsyms_open(path, NULL, NULL, &e), -ENOENT);
	path_of(path, sizeof(path), "src.c");
	assert_int_equal(f2t_elfsyms_open(path, NULL, NULL, &e), -ENOEXEC);
}

/*
 * A file is read once: the perf and off-CPU sources of a capture each open
 * the same libraries.  Changed, it is read again.
 */
static void test_elf_read_once(void **state)
{
	struct timespec later[2] = { { .tv_sec = 1000000000 }, { .tv_sec = 1000000000 } };
	struct f2t_elfsyms *e, *again;
	struct f2t_build_id wrong;
	char path[300];
	uint64_t off;

	if (!built)
		skip();
	path_of(path, sizeof(path), "lib.so");
	assert_int_equal(f2t_elfsyms_open(path, NULL, NULL, &e), 0);
	assert_int_equal(f2t_elfsyms_open(path, NULL, NULL, &again), 0);
	assert_ptr_equal(again, e);
	/* The build-id expected is still checked against the file's. */
	wrong = *f2t_elfsyms_build_id(e);
	wrong.b[0] ^= 0xff;
	assert_int_equal(f2t_elfsyms_open(path, &wrong, NULL, &again), -ESTALE);
	assert_null(again);
	/* Another debug root may give other symbols: read again. */
	assert_int_equal(f2t_elfsyms_open(path, NULL, "/nonexistent-root", &again), 0);
	assert_ptr_not_equal(again, e);
	/* Modified since: read again, and what was read before stays valid. */
	assert_int_equal(utimensat(AT_FDCWD, path, later, 0), 0);
	assert_int_equal(f2t_elfsyms_open(path, NULL, NULL, &again), 0);
	assert_ptr_not_equal(again, e);
	assert_string_equal(f2t_elfsyms_lookup(e, nm_addr("alpha"), &off), "alpha");
	f2t_elfsyms_free(e);
	f2t_elfsyms_free(again);
}

/* A capture may name a FIFO or a device: refused, not opened (a FIFO would block for ever). */
static void test_elf_not_a_regular_file(void **state)
{
	char path[512];
	struct f2t_elfsyms *e = NULL;

	path_of(path, sizeof(path), "fifo");
	unlink(path);
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(10);	/* a regression hangs in open(): end the test instead */
	assert_int_equal(f2t_elfsyms_open(path, NULL, NULL, &e), -ENOEXEC);
	assert_int_equal(f2t_elfsyms_open("/dev/null", NULL, NULL, &e), -ENOEXEC);
	alarm(0);
	assert_null(e);
	unlink(path);
}

static void test_elf_debug_file(void **state)
{
	char path[300], root[300], hex[2 * F2T_BUILD_ID_MAX + 1];
	struct f2t_build_id id;
	struct f2t_elfsyms *e;
	uint64_t off;

	if (!built)
		skip();
	path_of(path, sizeof(path), "stripped.so");
	assert_int_equal(build_id_of_path(path, &id), 0);
	/* Stripped, no debug file: .dynsym has the exported functions only. */
	assert_int_equal(f2t_elfsyms_open(path, &id, "/nonexistent", &e), 0);
	assert_string_equal(f2t_elfsyms_source(e), "dynsym");
	assert_string_equal(f2t_elfsyms_lookup(e, nm_addr("alpha") + 1, &off), "alpha");
	assert_true(f2t_elfsyms_lookup(e, nm_addr("hidden_fn"), &off) == NULL ||
		    strcmp(f2t_elfsyms_lookup(e, nm_addr("hidden_fn"), &off), "hidden_fn"));
	f2t_elfsyms_free(e);
	/* The debug file under ROOT/.build-id/xx/rest.debug brings .symtab back. */
	f2t_build_id_hex(&id, hex, sizeof(hex));
	path_of(root, sizeof(root), "debug");
	assert_int_equal(sh("mkdir -p %s/.build-id/%.2s && objcopy --only-keep-debug %s/lib.so "
			    "%s/.build-id/%.2s/%s.debug", root, hex, dir, root, hex, hex + 2), 0);
	assert_int_equal(f2t_elfsyms_open(path, &id, root, &e), 0);
	assert_string_equal(f2t_elfsyms_source(e), "debug");
	assert_string_equal(f2t_elfsyms_lookup(e, nm_addr("hidden_fn"), &off), "hidden_fn");
	f2t_elfsyms_free(e);
}

static const char kallsyms_text[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000100 t helper\n"
	"ffffffff81000200 T do_thing\n"
	"FFFFFFFF81000300 T upper_case\n"
	"0000000000000000 T hidden\n"
	"1ffffffff81000400 T seventeen_digits\n"
	"garbage line\n"
	"ffffffffc0001000 t xfs_read\t[xfs]\n"
	"ffffffffc0001400 T xfs_write\t[xfs]\n";

/* What kallsyms_text's lines give, in whatever order they come. */
static void check_kallsyms(const char *text, size_t len)
{
	struct f2t_ksyms *k = f2t_ksyms_parse(text, len);
	const struct f2t_kmod *m;
	uint64_t off;

	assert_non_null(k);
	/* Not kept: an address of 0 (hidden), one longer than 64 bits, garbage. */
	assert_int_equal(f2t_ksyms_count(k), 6);
	assert_string_equal(f2t_ksyms_lookup(k, 0xffffffff81000310, &m, &off), "upper_case");
	assert_string_equal(f2t_ksyms_lookup(k, 0xffffffff81000150, &m, &off), "helper");
	assert_int_equal(off, 0x50);
	assert_string_equal(m->name, "[kernel.kallsyms]");
	assert_string_equal(f2t_ksyms_lookup(k, 0xffffffff81000200, &m, &off), "do_thing");
	assert_string_equal(f2t_ksyms_lookup(k, 0xffffffffc0001410, &m, &off), "xfs_write");
	assert_string_equal(m->name, "[xfs]");
	/* Below everything, and far past the kernel's last symbol: unknown. */
	assert_null(f2t_ksyms_lookup(k, 0xffffffff80000000, &m, &off));
	assert_null(f2t_ksyms_lookup(k, 0xffffffff90000000, &m, &off));
	assert_null(m);
	f2t_ksyms_free(k);
}

static void test_kallsyms(void **state)
{
	check_kallsyms(kallsyms_text, sizeof(kallsyms_text) - 1);
}

/* The same lines last to first: out of address order, looked up alike. */
static void test_kallsyms_out_of_order(void **state)
{
	char rev[sizeof(kallsyms_text)];
	const char *end = kallsyms_text + sizeof(kallsyms_text) - 1;
	size_t n = 0;

	while (end > kallsyms_text) {
		const char *line = end - 1;

		while (line > kallsyms_text && line[-1] != '\n')
			line--;
		memcpy(rev + n, line, (size_t)(end - line));
		n += (size_t)(end - line);
		end = line;
	}
	assert_int_equal(n, sizeof(kallsyms_text) - 1);
	assert_memory_not_equal(rev, kallsyms_text, n);
	check_kallsyms(rev, n);
}

static void test_jitmap(void **state)
{
	static const char text[] = "7f0000001000 40 jitted_a\n7f0000002000 100 Lambda::run(int)\nbad\n";
	struct f2t_jitmap *j = f2t_jitmap_parse(text, sizeof(text) - 1);
	uint64_t off;

	assert_non_null(j);
	assert_string_equal(f2t_jitmap_lookup(j, 0x7f0000001010, &off), "jitted_a");
	assert_int_equal(off, 0x10);
	assert_null(f2t_jitmap_lookup(j, 0x7f0000001040, &off));
	assert_string_equal(f2t_jitmap_lookup(j, 0x7f00000020ff, &off), "Lambda::run(int)");
	assert_null(f2t_jitmap_lookup(j, 0x1000, &off));
	f2t_jitmap_free(j);
}

static void test_maps(void **state)
{
	struct f2t_maps *m = f2t_maps_new();
	struct f2t_module *a = f2t_maps_module(m, "/bin/a", 6, NULL);
	struct f2t_module *b = f2t_maps_module(m, "/lib/b.so", 9, NULL);
	struct f2t_build_id id1 = { .len = 2, .b = { 1, 2 } }, id2 = { .len = 2, .b = { 3, 4 } };
	const struct f2t_mapping *x;
	static const char proc[] =
		"55d000001000-55d000002000 r-xp 00001000 08:01 123   /bin/a\n"
		"7f0000010000-7f0000020000 r-xp 00010000 08:01 456   /lib/b.so\n";

	assert_non_null(a);
	assert_ptr_equal(f2t_maps_module(m, "/bin/a", 6, NULL), a);
	/* A build-id learnt later fills in. */
	assert_ptr_equal(f2t_maps_module(m, "/bin/a", 6, &id1), a);
	assert_true(f2t_build_id_eq(&a->build_id, &id1));
	assert_int_equal(f2t_maps_parse_proc(m, 10, proc, sizeof(proc) - 1), 2);
	x = f2t_maps_find(m, 10, 0x55d000001800);
	assert_non_null(x);
	assert_ptr_equal(x->mod, a);
	assert_int_equal(x->pgoff, 0x1000);
	assert_null(f2t_maps_find(m, 10, 0x55d000002000));
	assert_null(f2t_maps_find(m, 11, 0x55d000001800));
	/* A new mapping punches a hole: head and tail keep their offsets. */
	assert_int_equal(f2t_maps_add(m, 10, 0x7f0000014000, 0x1000, 0, a), 0);
	x = f2t_maps_find(m, 10, 0x7f0000013fff);
	assert_ptr_equal(x->mod, b);
	assert_ptr_equal(f2t_maps_find(m, 10, 0x7f0000014800)->mod, a);
	x = f2t_maps_find(m, 10, 0x7f0000015000);
	assert_ptr_equal(x->mod, b);
	assert_int_equal(x->start, 0x7f0000015000);
	assert_int_equal(x->pgoff, 0x15000);
	/* One covering several replaces them all. */
	assert_int_equal(f2t_maps_add(m, 10, 0x7f0000000000, 0x100000, 0, b), 0);
	assert_int_equal(f2t_maps_find(m, 10, 0x7f0000014800)->start, 0x7f0000000000);
	/* fork copies, exec empties */
	assert_int_equal(f2t_maps_fork(m, 10, 20), 0);
	assert_ptr_equal(f2t_maps_find(m, 20, 0x55d000001800)->mod, a);
	f2t_maps_exec(m, 10);
	assert_null(f2t_maps_find(m, 10, 0x55d000001800));
	assert_non_null(f2t_maps_find(m, 20, 0x55d000001800));
	/* many processes: the table grows */
	for (int pid = 100; pid < 3000; pid++)
		assert_int_equal(f2t_maps_add(m, pid, 0x1000, 0x1000, 0, a), 0);
	assert_ptr_equal(f2t_maps_find(m, 2999, 0x1800)->mod, a);
	assert_ptr_equal(f2t_maps_find(m, 20, 0x55d000001800)->mod, a);
	/* A different build-id at the same path: the file was replaced, another module. */
	assert_ptr_not_equal(f2t_maps_module(m, "/bin/a", 6, &id2), a);
	assert_ptr_equal(f2t_maps_module(m, "/bin/a", 6, &id1), a);
	f2t_maps_free(m, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_elf_lookup),
		cmocka_unit_test(test_elf_symbol_versions),
		cmocka_unit_test(test_elf_build_ids),
		cmocka_unit_test(test_elf_read_once),
		cmocka_unit_test(test_elf_not_a_regular_file),
		cmocka_unit_test(test_elf_debug_file),
		cmocka_unit_test(test_kallsyms),
		cmocka_unit_test(test_kallsyms_out_of_order),
		cmocka_unit_test(test_jitmap),
		cmocka_unit_test(test_maps),
	};

	return cmocka_run_group_tests(tests, build, cleanup);
}
