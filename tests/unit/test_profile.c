// SPDX-License-Identifier: MIT
/*
 * The profile stage: mappings, frames and callstacks made once and defined
 * before their first use, ids in creation order; the stack tree by name
 * (one node per parent, function and module, shared prefixes shared),
 * frames never dropped, a stack of no frames the one "[unknown]" root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/profile.h"
#include "model/stack_text.h"
#include "model/stacks.h"
#include "symbols/maps.h"

/* The definitions received, by kind, and the last of each. */
struct defs {
	unsigned int n[F2T_ITEM_STACK_NODE + 1];
	struct f2t_mapping_def mapping;
	struct f2t_frame_def frame;
	struct f2t_callstack_def callstack;
	struct f2t_stack_node_def node;
	char name[64], module[64];
	uint64_t ts;
};

static int keep(void *ctx, const struct f2t_item *it)
{
	struct defs *d = ctx;

	d->n[it->kind]++;
	d->ts = it->ts;
	switch (it->kind) {
	case F2T_ITEM_MAPPING:
		d->mapping = *it->def.mapping;
		break;
	case F2T_ITEM_FRAME:
		d->frame = *it->def.frame;
		snprintf(d->name, sizeof(d->name), "%.*s", (int)d->frame.name.len,
			 d->frame.name.s);
		break;
	case F2T_ITEM_CALLSTACK:
		d->callstack = *it->def.callstack;
		break;
	case F2T_ITEM_STACK_NODE:
		d->node = *it->def.node;
		snprintf(d->name, sizeof(d->name), "%.*s", (int)d->node.name.len, d->node.name.s);
		snprintf(d->module, sizeof(d->module), "%.*s", (int)d->node.module.len,
			 d->node.module.s);
		break;
	default:
		fail();
	}
	return 0;
}

static struct f2t_frame fr(const char *func, const char *module, uint64_t off)
{
	struct f2t_frame f = { .ip = 0x1000 + off, .func = func, .module = module, .offset = off };

	return f;
}

/* The stack of @frames (innermost first) in process 42, into @ref. */
static int stack(struct f2t_profile *p, struct defs *d, const struct f2t_frame *frames,
		 uint32_t n, struct f2t_stack_ref *ref)
{
	struct f2t_item use = { .kind = F2T_ITEM_SAMPLE, .ts = 5,
				.track = { F2T_TRACK_THREAD, 42, 43, 0 } };

	return f2t_profile_stack(p, 42, frames, n, true, &use, keep, d, ref);
}

static void test_dedup(void **state)
{
	struct f2t_profile *p = f2t_profile_new();
	struct defs d = { 0 };
	/* innermost first, as samples carry them */
	struct f2t_frame a[] = { fr("leaf", "/bin/x", 1), fr("mid", "/bin/x", 2),
				 fr("main", "/bin/x", 3) };
	struct f2t_frame b[] = { fr("other", "/lib/libc.so.6", 4), fr("mid", "/bin/x", 2),
				 fr("main", "/bin/x", 3) };
	struct f2t_stack_ref ra, rb, r;

	assert_non_null(p);
	assert_int_equal(stack(p, &d, a, 3, &ra), 0);
	/* main=1, mid=2, leaf=3: frames, callstacks and nodes alike, root first */
	assert_int_equal(ra.callstack, 3);
	assert_int_equal(ra.node, 3);
	assert_int_equal(d.n[F2T_ITEM_FRAME], 3);
	assert_int_equal(d.n[F2T_ITEM_CALLSTACK], 3);
	assert_int_equal(d.n[F2T_ITEM_STACK_NODE], 3);
	assert_int_equal(d.n[F2T_ITEM_MAPPING], 0);	/* no binary known */
	assert_int_equal(d.callstack.parent, 2);
	assert_int_equal(d.callstack.frame, 3);
	assert_int_equal(d.callstack.depth, 3);
	assert_int_equal(d.node.parent, 2);
	assert_string_equal(d.name, "leaf");
	assert_string_equal(d.module, "/bin/x");
	assert_int_equal(d.ts, 5);
	/* The same stack again: the same ids, nothing defined. */
	assert_int_equal(stack(p, &d, a, 3, &r), 0);
	assert_memory_equal(&r, &ra, sizeof(r));
	assert_int_equal(d.n[F2T_ITEM_CALLSTACK] + d.n[F2T_ITEM_FRAME], 6);
	/* A shared prefix shares its callstacks and nodes. */
	assert_int_equal(stack(p, &d, b, 3, &rb), 0);
	assert_int_equal(rb.callstack, 4);
	assert_int_equal(rb.node, 4);
	assert_int_equal(d.callstack.parent, 2);
	assert_int_equal(d.n[F2T_ITEM_STACK_NODE], 4);
	/* A suffix of a stack is a different path: main alone is callstack 1. */
	assert_int_equal(stack(p, &d, &a[2], 1, &r), 0);
	assert_int_equal(r.callstack, 1);
	assert_int_equal(r.node, 1);
	/* Many samples of known stacks: nothing new. */
	for (int i = 0; i < 10000; i++) {
		assert_int_equal(stack(p, &d, i % 2 ? a : b, 3, &r), 0);
		assert_int_equal(r.callstack, i % 2 ? ra.callstack : rb.callstack);
	}
	assert_int_equal(f2t_profile_nodes(p), 4);
	assert_int_equal(d.n[F2T_ITEM_CALLSTACK], 4);
	f2t_profile_free(p);
}

static void test_mappings(void **state)
{
	static const uint8_t bid[] = { 1, 2, 3 };
	static const struct f2t_module kernel = { .id = 1 }, libc = { .id = 2 };
	struct f2t_profile *p = f2t_profile_new();
	struct defs d = { 0 };
	struct f2t_frame k = { .ip = 0xffff0010, .func = "schedule", .module = "[kernel.kallsyms]",
			       .mod = &kernel, .mod_id = 1, .build_id = bid, .build_id_len = 3,
			       .kernel = true,
			       .map_start = 0xffff0000, .map_len = 0x100, .map_vaddr = 0xffff0000 };
	struct f2t_frame u = { .ip = 0x7010, .func = "read", .module = "/lib/libc.so.6",
			       .mod = &libc, .mod_id = 2, .map_start = 0x7000, .map_len = 0x1000,
			       .map_vaddr = 0x1000 };
	struct f2t_item use = { .kind = F2T_ITEM_SAMPLE };
	struct f2t_stack_ref r;

	assert_int_equal(f2t_profile_stack(p, 42, &k, 1, false, &use, keep, &d, &r), 0);
	assert_int_equal(d.n[F2T_ITEM_MAPPING], 1);
	assert_int_equal(d.mapping.module, 1);
	assert_int_equal(d.mapping.build_id_len, 3);
	assert_int_equal(d.mapping.start, 0xffff0000);
	assert_int_equal(d.frame.mapping, 1);
	assert_int_equal(d.frame.rel_pc, 0x10);
	assert_int_equal(r.node, 0);	/* not asked for */
	assert_int_equal(d.n[F2T_ITEM_STACK_NODE], 0);
	/* The kernel's mapping is every process's; a user one is its process's. */
	assert_int_equal(f2t_profile_stack(p, 7, &k, 1, false, &use, keep, &d, &r), 0);
	assert_int_equal(r.callstack, 1);
	assert_int_equal(d.n[F2T_ITEM_MAPPING], 1);
	assert_int_equal(f2t_profile_stack(p, 42, &u, 1, false, &use, keep, &d, &r), 0);
	assert_int_equal(f2t_profile_stack(p, 7, &u, 1, false, &use, keep, &d, &r), 0);
	assert_int_equal(d.n[F2T_ITEM_MAPPING], 3);
	assert_int_equal(d.n[F2T_ITEM_FRAME], 3);
	assert_int_equal(d.mapping.vaddr, 0x1000);
	assert_int_equal(d.frame.pc, 0x7010);
	assert_int_equal(d.frame.rel_pc, 0x10);
	/* Asked for later, a callstack's node is made then, its parents' first. */
	assert_int_equal(f2t_profile_stack(p, 7, &u, 1, true, &use, keep, &d, &r), 0);
	assert_int_equal(r.node, 1);
	assert_int_equal(d.n[F2T_ITEM_STACK_NODE], 1);
	f2t_profile_free(p);
}

static void test_unknown_frames_kept(void **state)
{
	struct f2t_profile *p = f2t_profile_new();
	struct defs d = { 0 };
	struct f2t_frame f[] = { fr(NULL, "/usr/lib/libz.so.1", 0x1234), fr(NULL, NULL, 0x42),
				 fr("main", "/bin/x", 0) };
	struct f2t_stack_ref r;
	char buf[64];

	assert_int_equal(f2t_frame_name(&f[0], buf, sizeof(buf)), strlen("libz.so.1+0x1234"));
	assert_string_equal(buf, "libz.so.1+0x1234");
	assert_int_equal(stack(p, &d, f, 3, &r), 0);
	assert_int_equal(r.node, 3);
	assert_string_equal(d.name, "libz.so.1+0x1234");
	assert_string_equal(d.module, "/usr/lib/libz.so.1");
	/* A sample with no frame at all still gets a node (catapult needs one). */
	assert_int_equal(stack(p, &d, NULL, 0, &r), 0);
	assert_int_equal(r.callstack, 0);
	assert_int_equal(r.node, 4);
	assert_string_equal(d.name, "[unknown]");
	assert_string_equal(d.module, "[unknown]");
	assert_int_equal(d.node.parent, 0);
	assert_int_equal(stack(p, &d, NULL, 0, &r), 0);
	assert_int_equal(r.node, 4);
	assert_int_equal(d.n[F2T_ITEM_STACK_NODE], 4);
	/* Names are cut, not overflowed. */
	assert_int_equal(f2t_frame_name(&f[0], buf, 5), 4);
	assert_string_equal(buf, "libz");
	assert_int_equal(f2t_frame_name(&f[0], buf, 12), 11);
	assert_string_equal(buf, "libz.so.1+0");
	f2t_profile_free(p);
}

/* A function name longer than the buffer is cut to it, whatever its length. */
static void test_long_name_cut(void **state)
{
	static char name[65536];
	struct f2t_frame f;
	char buf[F2T_FRAME_NAME_MAX + 1];

	memset(name, 'x', sizeof(name) - 1);
	name[0] = 'a';
	f = fr(name, "/bin/x", 3);
	assert_int_equal(f2t_frame_name(&f, buf, sizeof(buf)), F2T_FRAME_NAME_MAX);
	assert_int_equal(strlen(buf), F2T_FRAME_NAME_MAX);
	assert_memory_equal(buf, name, F2T_FRAME_NAME_MAX);
	assert_int_equal(f2t_frame_name(&f, buf, 1), 0);
	assert_string_equal(buf, "");
}

/*
 * One address named two ways (a return address by the call before it):
 * one frame, the first name; the stack tree names each as it came.
 */
static void test_renamed(void **state)
{
	struct f2t_profile *p = f2t_profile_new();
	struct defs d = { 0 };
	struct f2t_frame a[] = { fr("memcpy", "/lib/libc.so.6", 1), fr("main", "/bin/x", 3) };
	struct f2t_frame b[] = { fr("before_memcpy", "/lib/libc.so.6", 1),
				 fr("main", "/bin/x", 3) };
	struct f2t_stack_ref ra, rb, r;

	assert_int_equal(stack(p, &d, a, 2, &ra), 0);
	assert_int_equal(stack(p, &d, b, 2, &rb), 0);
	assert_int_equal(rb.callstack, ra.callstack);
	assert_int_equal(d.n[F2T_ITEM_FRAME], 2);
	assert_int_equal(rb.node, 3);
	assert_string_equal(d.name, "before_memcpy");
	assert_int_equal(d.node.parent, 1);
	/* Each way again: its own node, nothing new. */
	assert_int_equal(stack(p, &d, a, 2, &r), 0);
	assert_int_equal(r.node, ra.node);
	assert_int_equal(stack(p, &d, b, 2, &r), 0);
	assert_int_equal(r.node, rb.node);
	assert_int_equal(d.n[F2T_ITEM_STACK_NODE], 3);
	f2t_profile_free(p);
}

static void test_many_distinct(void **state)
{
	struct f2t_stacks *s = f2t_stacks_new();
	char name[32];

	/* Past several table growths, every node keeps its id. */
	for (int i = 0; i < 50000; i++) {
		int n = snprintf(name, sizeof(name), "f%d", i);

		assert_int_equal(f2t_stacks_node(s, (uint32_t)(i / 2), name, (size_t)n, "m", 1), i + 1);
	}
	for (int i = 0; i < 50000; i += 997) {
		int n = snprintf(name, sizeof(name), "f%d", i);

		assert_int_equal(f2t_stacks_node(s, (uint32_t)(i / 2), name, (size_t)n, "m", 1), i + 1);
	}
	assert_int_equal(f2t_stacks_count(s), 50000);
	f2t_stacks_free(s);
}

static int to_text(void *ctx, const struct f2t_item *it)
{
	return f2t_stack_text_define(ctx, it);
}

/* A callstack as text from the definitions: innermost first, one frame a line. */
static void test_stack_text(void **state)
{
	const struct f2t_frame frames[] = {
		{ .ip = 0x10, .func = "schedule", .module = "[kernel.kallsyms]", .kernel = true },
		{ .ip = 0x20, .func = "pipe_read", .module = "[kernel.kallsyms]", .kernel = true },
		{ .ip = 0x1234, .func = NULL, .module = "/bin/app", .offset = 0x234 },
	};
	struct f2t_profile *p = f2t_profile_new();
	struct f2t_stack_text *t = f2t_stack_text_new();
	struct f2t_item use = { .ts = 1, .track = { F2T_TRACK_THREAD, 7, 7, 0 } };
	struct f2t_stack_ref whole, outer;
	struct f2t_str s;

	assert_non_null(p);
	assert_non_null(t);
	assert_int_equal(f2t_profile_stack(p, 7, frames, 3, false, &use, to_text, t, &whole), 0);
	assert_int_equal(f2t_profile_stack(p, 7, frames + 1, 2, false, &use, to_text, t, &outer),
			 0);
	s = f2t_stack_text(t, whole.callstack);
	assert_int_equal(s.len, strlen(s.s));
	assert_string_equal(s.s, "schedule\npipe_read\napp+0x234");
	assert_string_equal(f2t_stack_text(t, outer.callstack).s, "pipe_read\napp+0x234");
	assert_string_equal(f2t_stack_text(t, 0).s, "");
	assert_string_equal(f2t_stack_text(t, 99).s, "");
	f2t_stack_text_free(t);
	f2t_profile_free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dedup),
		cmocka_unit_test(test_mappings),
		cmocka_unit_test(test_unknown_frames_kept),
		cmocka_unit_test(test_long_name_cut),
		cmocka_unit_test(test_renamed),
		cmocka_unit_test(test_many_distinct),
		cmocka_unit_test(test_stack_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
