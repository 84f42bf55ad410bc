/* SPDX-License-Identifier: MIT */
/*
 * What the model hands every writer to draw: slices, instants, counters,
 * async slices, clock syncs and samples, each on a track, with a category,
 * a name and typed arguments.  The model decides once, from the events,
 * what is drawn where (model.h); a writer only encodes items in its format.
 *
 * Items point into the model's and the event's memory: valid during the
 * callback that receives them.
 */
#ifndef F2T_ITEM_H
#define F2T_ITEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/event.h"

enum f2t_track_kind {
	F2T_TRACK_THREAD,	/* a task: pid is its process, tid the task */
	F2T_TRACK_CPU_IRQ,	/* the pseudo thread "irq cpuN" (model/pseudo.h) */
	F2T_TRACK_CPU_IDLE,	/* the pseudo thread "swapper/N": CPU N's idle task */
	F2T_TRACK_CPUS,		/* the pseudo process "CPUs" itself (its counters) */
};

/* Where an item is drawn, numbered as the viewers will see it. */
struct f2t_track {
	enum f2t_track_kind kind;
	int32_t pid, tid;
	uint32_t cpu;		/* CPU_IRQ, CPU_IDLE */
};

enum f2t_arg_type {
	F2T_ARG_I32,
	F2T_ARG_U32,
	F2T_ARG_I64,
	F2T_ARG_U64,
	F2T_ARG_DOUBLE,
	F2T_ARG_BOOL,
	F2T_ARG_STR,
};

/* A string that need not be NUL-terminated; s NULL means none. */
struct f2t_str {
	const char *s;
	size_t len;
};

struct f2t_arg {
	const char *name;
	enum f2t_arg_type type;
	/*
	 * STR: a value that rarely repeats (free text, a field's contents),
	 * which a format with a string table should write in place rather
	 * than churn its table with.
	 */
	bool unique;
	/*
	 * A value the trace says elsewhere (an off-CPU waker's pid and name,
	 * which its tid gives): a format pressed for room that names threads
	 * by tid itself may leave it out.
	 */
	bool derived;
	union {
		int64_t i;
		uint64_t u;
		double d;
		bool b;
		struct f2t_str str;
	};
};

enum f2t_item_kind {
	F2T_ITEM_NAME,		/* a pseudo track's name, before its first use */
	F2T_ITEM_BEGIN,		/* a slice begins on the track */
	F2T_ITEM_END,		/* the track's innermost slice ends */
	F2T_ITEM_COMPLETE,	/* a whole slice, [ts, end_ts] */
	F2T_ITEM_INSTANT,
	F2T_ITEM_COUNTER,	/* values of the counter "name", series = arg names */
	F2T_ITEM_ASYNC_BEGIN,	/* paired with its end by id */
	F2T_ITEM_ASYNC_END,
	F2T_ITEM_CLOCK_SYNC,	/* a point two clocks agree on: args sync_id[, parent_ts] */
	F2T_ITEM_SAMPLE,	/* a CPU sample: ev is the sample, stack its callstack */
	/*
	 * The profile's definitions (model/profile.h), each once, before the
	 * first item that uses it; def says which.
	 */
	F2T_ITEM_MAPPING,
	F2T_ITEM_FRAME,
	F2T_ITEM_CALLSTACK,
	F2T_ITEM_STACK_NODE,
};

#define F2T_ITEM_MAX_ARGS 15

/*
 * A binary mapped in a process (the kernel's, and each kernel module's, in
 * every process).
 */
struct f2t_mapping_def {
	uint32_t id;			/* 1, 2, ... */
	/*
	 * The binary's number (1, 2, ...) in the symbolizer that named it, the
	 * same in every mapping of it; another source's binary can have it too.
	 */
	uint32_t module;
	struct f2t_str path;		/* a file, "[kernel.kallsyms]", "[MOD]", "[vdso]"... */
	const uint8_t *build_id;
	size_t build_id_len;		/* 0: not known */
	uint64_t start, len;		/* where it is mapped */
	uint64_t vaddr;			/* the binary's own address of start (ELF vaddr) */
};

/* An address in a mapping, or outside any (JIT code, unknown). */
struct f2t_frame_def {
	uint32_t id;			/* 1, 2, ... */
	uint32_t mapping;		/* 0: none */
	uint64_t pc, rel_pc;		/* rel_pc: pc less the mapping's start */
	/* Its function, else "MODULE_BASENAME+0xOFFSET", as every output names it. */
	struct f2t_str name;
};

/* A frame called from a parent callstack: a stack, its innermost frame last added. */
struct f2t_callstack_def {
	uint32_t id;			/* 1, 2, ... */
	uint32_t parent;		/* 0: frame is the outermost */
	uint32_t frame;
	uint32_t depth;			/* frames in it: the parent's and one */
	bool kernel;			/* frame is the kernel's */
};

/*
 * A node of the stack tree by name (JSON's stackFrames): a callstack's
 * frames by function name and module, so frames of one name at several
 * addresses are one node.
 */
struct f2t_stack_node_def {
	uint32_t id;			/* 1, 2, ...: a parent's is smaller */
	uint32_t parent;		/* 0: a root */
	struct f2t_str name, module;
};

/* A stack as items name it: 0 for none. */
struct f2t_stack_ref {
	uint32_t callstack;
	uint32_t node;			/* its node in the stack tree, when made */
};

struct f2t_item {
	enum f2t_item_kind kind;
	uint64_t ts;
	uint64_t end_ts;	/* COMPLETE */
	struct f2t_track track;
	/*
	 * NAME: the track's name.  END: the name of the slice it ends when
	 * known (s NULL otherwise); its category is always the slice's.
	 */
	struct f2t_str category, name;
	bool name_unique;	/* the name is free text (see f2t_arg.unique) */
	/* ASYNC_*: the pairing id; COUNTER: the counter's id (per process/CPU). */
	uint64_t id;
	/*
	 * SAMPLE: its stack (a node always: "[unknown]" for none); an off-CPU
	 * COMPLETE (ev an F2T_EV_OFFCPU): the stack it blocked in, and in
	 * waker_stack the waker's (a callstack only; 0: none or no waker).
	 */
	struct f2t_stack_ref stack, waker_stack;
	union {				/* MAPPING, FRAME, CALLSTACK, STACK_NODE */
		const struct f2t_mapping_def *mapping;
		const struct f2t_frame_def *frame;
		const struct f2t_callstack_def *callstack;
		const struct f2t_stack_node_def *node;
	} def;
	const struct f2t_arg *args;
	unsigned int nargs;
	const struct f2t_event *ev;	/* what it came from; NULL at the trace's end */
};

#endif
