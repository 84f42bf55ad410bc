// SPDX-License-Identifier: MIT
/*
 * Paths resolved as the kernel would, every component's link followed
 * (util/path.h), in a scratch tree made here.  Whose links are refused in a
 * sticky directory needs a second user: tests/integration/sudo_files.sh.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/path.h"

static char root[PATH_MAX];

#define ROOT_PATH_MAX (PATH_MAX + 64)

static const char *at(char out[ROOT_PATH_MAX], const char *rel)
{
	snprintf(out, ROOT_PATH_MAX, "%s/%s", root, rel);
	return out;
}

/* ROOT/a (dir), ROOT/a/f (file), ROOT/l -> a, ROOT/abs -> ROOT/a/f,
 * ROOT/a/up -> .., ROOT/loop -> loop, ROOT/sticky (1777) with ROOT/sticky/mine -> ../a */
static int make_tree(void **state)
{
	char p[ROOT_PATH_MAX], target[ROOT_PATH_MAX];
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	snprintf(p, sizeof(p), "%s/f2t-path-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(p) || !realpath(p, root))
		return -1;
	if (mkdir(at(p, "a"), 0755) < 0 || !(f = fopen(at(p, "a/f"), "w")))
		return -1;
	fclose(f);
	if (symlink("a", at(p, "l")) || symlink(at(target, "a/f"), at(p, "abs")) ||
	    symlink("..", at(p, "a/up")) || symlink("loop", at(p, "loop")) ||
	    mkdir(at(p, "sticky"), 01777) || chmod(p, 01777) ||
	    symlink("../a", at(p, "sticky/mine")))
		return -1;
	(void)state;
	return 0;
}

static int remove_tree(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	(void)state;
	return system(cmd) == 0 ? 0 : -1;
}

/* Resolves ROOT/REL and expects ROOT/WANT (WANT NULL: expect errno ERR). */
static void expect(const char *rel, const char *want, int err)
{
	char in[ROOT_PATH_MAX], out[ROOT_PATH_MAX];
	char *got;

	errno = 0;
	got = f2t_path_resolve(at(in, rel));
	if (!want) {
		assert_null(got);
		assert_int_equal(errno, err);
		return;
	}
	assert_non_null(got);
	assert_string_equal(got, at(out, want));
	free(got);
}

static void links_followed_at_every_component(void **state)
{
	expect("l/f", "a/f", 0);		/* a directory link, relative */
	expect("abs", "a/f", 0);		/* a file link, absolute */
	expect("l/up/l/f", "a/f", 0);		/* a link to .. inside a link */
	expect("sticky/mine/f", "a/f", 0);	/* our own link in a sticky directory */
	expect("a/./f", "a/f", 0);
	expect("a//f", "a/f", 0);
	(void)state;
}

static void dot_dot_after_a_link_is_the_target_s_parent(void **state)
{
	/* l -> a, so l/.. is ROOT, not the directory l sits in by accident. */
	expect("l/../a/f", "a/f", 0);
	expect("a/up/a/f", "a/f", 0);
	(void)state;
}

static void a_new_last_component_is_kept(void **state)
{
	expect("l/new.json", "a/new.json", 0);
	expect("l/missing/new.json", NULL, ENOENT);	/* only the last may be missing */
	(void)state;
}

static void loops_end(void **state)
{
	expect("loop", NULL, ELOOP);
	expect("loop/x", NULL, ELOOP);
	(void)state;
}

static void relative_paths_start_at_the_working_directory(void **state)
{
	char cwd[PATH_MAX], want[ROOT_PATH_MAX], *got;

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir(root), 0);
	got = f2t_path_resolve("l/f");
	assert_int_equal(chdir(cwd), 0);
	assert_non_null(got);
	assert_string_equal(got, at(want, "a/f"));
	free(got);
	got = f2t_path_resolve("/");
	assert_non_null(got);
	assert_string_equal(got, "/");
	free(got);
	(void)state;
}

static void a_pipe_behind_proc_is_left_to_the_kernel(void **state)
{
	char link[ROOT_PATH_MAX], fdpath[64], *got;
	int fds[2];
	size_t n;

	assert_int_equal(pipe(fds), 0);
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fds[0]);
	assert_int_equal(symlink(fdpath, at(link, "stdin")), 0);	/* as /dev/stdin is */
	got = f2t_path_resolve(link);
	assert_non_null(got);
	n = strlen(got);
	/* /proc/PID/fd/N, the pipe's link itself, with nothing after it. */
	assert_true(!strncmp(got, "/proc/", 6) && got[n - 1] != '/');
	assert_string_equal(strrchr(got, '/') + 1, strrchr(fdpath, '/') + 1);
	free(got);
	close(fds[0]);
	close(fds[1]);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(links_followed_at_every_component),
		cmocka_unit_test(dot_dot_after_a_link_is_the_target_s_parent),
		cmocka_unit_test(a_new_last_component_is_kept),
		cmocka_unit_test(loops_end),
		cmocka_unit_test(relative_paths_start_at_the_working_directory),
		cmocka_unit_test(a_pipe_behind_proc_is_left_to_the_kernel),
	};

	return cmocka_run_group_tests(tests, make_tree, remove_tree);
}
