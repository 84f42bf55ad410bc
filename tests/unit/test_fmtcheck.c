// SPDX-License-Identifier: MIT
/*
 * The format-file check that stands before libtraceevent's parser: every
 * format the running kernel writes passes it (when tracefs is readable);
 * the kinds of damage that made libtraceevent crash are refused at the
 * right offset; a capture holding one is refused by convert, naming the
 * file and offset.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <errno.h>

#include <cmocka.h>
#include <traceevent/event-parse.h>

#include "source/ringbuf/fmtcheck.h"

#define MAX_RECORD (4096 - 16)

static const char good[] =
	"name: softirq_entry\n"
	"ID: 223\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\n"
	"\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n"
	"\n"
	"print fmt: \"vec=%u [action=%s] %s %s\", REC->vec, __print_symbolic(REC->vec, "
	"{ 0, \"HI\" }, { 1, \"TIMER\" }), __get_str(name), (REC->vec > 1) ? \"a\" : \"b\"\n";

/* GOOD with the first occurrence of FROM replaced by TO, checked. */
static int check_edit(const char *from, const char *to, const char **why, size_t *at)
{
	char buf[4096];
	const char *hit = strstr(good, from);
	size_t n;

	assert_non_null(hit);
	n = (size_t)snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(hit - good), good, to,
			     hit + strlen(from));
	return f2t_format_check(buf, n, MAX_RECORD, NULL, why, at);
}

static void test_accepts_the_kernels_shape(void **state)
{
	const char *why = NULL;
	uint32_t id = 0;
	size_t at = 0;

	assert_int_equal(f2t_format_check(good, strlen(good), MAX_RECORD, &id, &why, &at), 0);
	assert_int_equal(id, 223);
}

/* GOOD with FROM replaced by TO is refused, at DELTA bytes into TO (negative: before it). */
static void refused_at(const char *from, const char *to, long delta)
{
	const char *why = NULL;
	size_t at = 0;

	assert_int_equal(check_edit(from, to, &why, &at), -EINVAL);
	assert_non_null(why);
	assert_int_equal(at, (size_t)((long)(strstr(good, from) - good) + delta));
}

static void test_refuses_what_crashed_libtraceevent(void **state)
{
	/* A byte the tokenizer gives no token for, inside an array's brackets. */
	refused_at("comm[16]", "comm[\xdd", 5);
	/* An unclosed bracket. */
	refused_at("comm[16]", "comm[16", 7);
	/* __print_symbolic() of a field the event does not have. */
	refused_at("__print_symbolic(REC->vec", "__print_symbolic(REC->nope", 22);
	/* __get_str() of no field. */
	refused_at("__get_str(name)", "__get_str(nope)", 10);
	/* A name libtraceevent reads otherwise ("*"), so REC->vec would find no field. */
	refused_at("unsigned int vec;", "unsigned int vec*;", 16);
	/* -> after anything but REC: libtraceevent then compares a NULL token. */
	refused_at("REC->vec, __print_symbolic", "X->vec, __print_symbolic", 1);
	/* Braces anywhere but as __print_symbolic's { VALUE, NAME } entries. */
	refused_at("{ 1, \"TIMER\" }", "! { 1, \"TIMER\" }", 0);
	/* Division by zero, or by a record's field that may be zero. */
	refused_at("REC->vec, __print_symbolic", "REC->vec / 0, __print_symbolic", 11);
	refused_at("REC->vec, __print_symbolic", "REC->vec % REC->vec, __print_symbolic", 11);
	refused_at("REC->vec, __print_symbolic", "REC->vec / 08, __print_symbolic", 11);
	assert_int_equal(check_edit("REC->vec, __print", "REC->vec / 0x10UL % sizeof(u64), __print",
				    &(const char *){ NULL }, &(size_t){ 0 }), 0);
	/* The text ends inside an expression. */
	refused_at(" : \"b\"\n", " :\n", 2);
	/* A tab right before a bracket inside a string (a tab alone is maple_tree's). */
	refused_at("? \"a\"", "? \"a\t]\"", 4);
	assert_int_equal(check_edit("? \"a\"", "? \"a\tNode\"", &(const char *){ NULL },
				    &(size_t){ 0 }), 0);
	/* A string literal indexed: ""[heap] (a fuzzed capture; libtraceevent's parser crashed). */
	refused_at("? \"a\"", "? \"a\"[REC->vec]", 5);
}

static void test_refuses_fields_outside_a_record(void **state)
{
	long decl = -(long)strlen("\tfield:unsigned int vec;\t");

	/* Refused at the field's declaration. */
	refused_at("offset:8;\tsize:4", "offset:4090;\tsize:4", decl + (long)strlen("\tfield:"));
	refused_at("offset:8;\tsize:4", "offset:8;\tsize:4294967295", decl + (long)strlen("\tfield:"));
	refused_at("offset:8;\tsize:4", "offset:-8;\tsize:4", 7);
	/*
	 * common_type must be in the 8 bytes read from every record before its
	 * type is known; found missing where the fields end.
	 */
	refused_at("offset:0;\tsize:2", "offset:100;\tsize:2",
		   (long)(strstr(good, "print fmt: ") - strstr(good, "offset:0;\tsize:2")) + 2 +
			   (long)strlen("print fmt: "));	/* TO is 2 bytes longer */
}

static void test_refuses_deep_nesting_and_huge_ids(void **state)
{
	char buf[8192];
	const char *why = NULL;
	size_t at = 0;
	int n = snprintf(buf, sizeof(buf), "%.*s", (int)(strstr(good, "print fmt") - good), good);

	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "print fmt: \"%%d\", ");
	for (int i = 0; i < 100; i++)
		buf[n++] = '(';
	n += snprintf(buf + n, sizeof(buf) - (size_t)n, "REC->vec");
	for (int i = 0; i < 100; i++)
		buf[n++] = ')';
	assert_int_equal(f2t_format_check(buf, (size_t)n, MAX_RECORD, NULL, &why, &at), -EINVAL);
	refused_at("ID: 223", "ID: 65536", 4);
}

/*
 * Every format file of the running kernel that libtraceevent parses, when
 * tracefs can be read: the check refuses nothing that used to work.
 */
static void test_accepts_every_format_of_this_kernel(void **state)
{
	const char *root = "/sys/kernel/tracing/events";
	DIR *top = opendir(root);
	struct tep_handle *tep = tep_alloc();
	struct dirent *sys;
	int checked = 0, unparsed = 0;

	assert_non_null(tep);
	/* Reading a format file would sleep for good there (tests/run-all.sh). */
	if (getenv("F2T_TRACEFS_STUCK") && *getenv("F2T_TRACEFS_STUCK")) {
		print_message("skipped: %s\n", getenv("F2T_TRACEFS_STUCK"));
		if (top)
			closedir(top);
		tep_free(tep);
		skip();
	}
	if (!top)
		skip();
	while ((sys = readdir(top))) {
		char path[1024];
		DIR *d;
		struct dirent *ev;

		snprintf(path, sizeof(path), "%s/%s", root, sys->d_name);
		if (sys->d_name[0] == '.' || !(d = opendir(path)))
			continue;
		while ((ev = readdir(d))) {
			char text[F2T_FORMAT_MAX], fpath[1400];
			const char *why = NULL;
			size_t len, at = 0;
			FILE *f;

			snprintf(fpath, sizeof(fpath), "%s/%s/format", path, ev->d_name);
			if (ev->d_name[0] == '.' || !(f = fopen(fpath, "r")))
				continue;
			len = fread(text, 1, sizeof(text), f);
			fclose(f);
			if (tep_parse_event(tep, text, len, sys->d_name)) {
				unparsed++;
				continue;
			}
			if (f2t_format_check(text, len, MAX_RECORD, NULL, &why, &at))
				fail_msg("%s: offset %zu: %s", fpath, at, why);
			checked++;
		}
		closedir(d);
	}
	closedir(top);
	tep_free(tep);
	if (!checked)
		skip();
	printf("checked %d format files of the running kernel (%d more libtraceevent does not parse)\n",
	       checked, unparsed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accepts_the_kernels_shape),
		cmocka_unit_test(test_refuses_what_crashed_libtraceevent),
		cmocka_unit_test(test_refuses_fields_outside_a_record),
		cmocka_unit_test(test_refuses_deep_nesting_and_huge_ids),
		cmocka_unit_test(test_accepts_every_format_of_this_kernel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
