/* SPDX-License-Identifier: MIT */
/*
 * Field numbers and enum values of Perfetto's trace protos that this
 * writer uses: facts read from the .proto files of upstream Perfetto
 * (protos/perfetto/trace/..., commit ec5d16b1), one name per number.
 * tests/fixtures/perfetto/trace_subset.proto declares the same fields, written from
 * these numbers, so `protoc --decode` can check what we write.
 */
#ifndef F2T_PF_FIELDS_H
#define F2T_PF_FIELDS_H

/* Trace */
enum { PF_TRACE_PACKET = 1 };

/* TracePacket */
enum {
	PF_PKT_FTRACE_EVENTS = 1,	/* FtraceEventBundle */
	PF_PKT_CHROME_EVENTS = 5,	/* ChromeEventBundle: its metadata only */
	PF_PKT_PROCESS_TREE = 2,
	PF_PKT_CLOCK_SNAPSHOT = 6,
	PF_PKT_TIMESTAMP = 8,
	PF_PKT_TRUSTED_SEQUENCE_ID = 10,
	PF_PKT_TRACK_EVENT = 11,
	PF_PKT_INTERNED_DATA = 12,
	PF_PKT_SEQUENCE_FLAGS = 13,
	PF_PKT_FTRACE_STATS = 34,
	PF_PKT_SYSTEM_INFO = 45,
	PF_PKT_TIMESTAMP_CLOCK_ID = 58,
	PF_PKT_TRACE_PACKET_DEFAULTS = 59,
	PF_PKT_TRACK_DESCRIPTOR = 60,
	PF_PKT_PERF_SAMPLE = 66,
};

/* TracePacket.SequenceFlags */
enum {
	PF_SEQ_INCREMENTAL_STATE_CLEARED = 1,
	PF_SEQ_NEEDS_INCREMENTAL_STATE = 2,
};

/* BuiltinClock (ClockSnapshot.Clock.clock_id, timestamp_clock_id) */
enum {
	PF_CLOCK_REALTIME = 1,
	PF_CLOCK_MONOTONIC = 3,
	PF_CLOCK_BOOTTIME = 6,
	PF_CLOCK_SEQ = 64,	/* the first of the ids a sequence defines for itself */
};

/* ClockSnapshot, ClockSnapshot.Clock */
enum { PF_CLOCKS = 1, PF_CLOCK_ID = 1, PF_CLOCK_TIMESTAMP = 2 };

/* SystemInfo, Utsname */
enum {
	PF_SYSINFO_UTSNAME = 1,
	PF_SYSINFO_TRACING_SERVICE_VERSION = 4,
	PF_SYSINFO_PAGE_SIZE = 6,
	PF_SYSINFO_TIMEZONE_OFF_MINS = 7,
	PF_SYSINFO_NUM_CPUS = 8,
	PF_UTS_SYSNAME = 1,
	PF_UTS_VERSION = 2,
	PF_UTS_RELEASE = 3,
	PF_UTS_MACHINE = 4,
};

/* ChromeEventBundle.metadata, ChromeMetadata */
enum {
	PF_CHROME_METADATA = 2,
	PF_CMETA_NAME = 1,
	PF_CMETA_STRING = 2,
	PF_CMETA_INT = 4,
};

/* ProcessTree, ProcessTree.Process, ProcessTree.Thread */
enum {
	PF_PTREE_PROCESSES = 1,
	PF_PTREE_THREADS = 2,
	PF_PROC_PID = 1,
	PF_PROC_CMDLINE = 3,
	PF_PROC_CMDLINE_IS_COMM = 9,
	PF_THREAD_TID = 1,
	PF_THREAD_NAME = 2,
	PF_THREAD_TGID = 3,
};

/* FtraceStats, FtraceCpuStats */
enum {
	PF_FSTATS_PHASE = 1,
	PF_FSTATS_CPU_STATS = 2,
	PF_FSTATS_START = 1,
	PF_FSTATS_END = 2,
	PF_FCPU_CPU = 1,
	PF_FCPU_ENTRIES = 2,
	PF_FCPU_OVERRUN = 3,
	PF_FCPU_COMMIT_OVERRUN = 4,
	PF_FCPU_BYTES_READ = 5,
	PF_FCPU_DROPPED_EVENTS = 8,
	PF_FCPU_READ_EVENTS = 9,
};

/* FtraceEventBundle, FtraceEventBundle.CompactSched */
enum {
	PF_BUNDLE_CPU = 1,
	PF_BUNDLE_EVENT = 2,
	PF_BUNDLE_LOST_EVENTS = 3,
	PF_BUNDLE_COMPACT_SCHED = 4,
	PF_CS_SWITCH_TIMESTAMP = 1,
	PF_CS_SWITCH_PREV_STATE = 2,
	PF_CS_SWITCH_NEXT_PID = 3,
	PF_CS_SWITCH_NEXT_PRIO = 4,
	PF_CS_INTERN_TABLE = 5,
	PF_CS_SWITCH_NEXT_COMM_INDEX = 6,
	PF_CS_WAKING_TIMESTAMP = 7,
	PF_CS_WAKING_PID = 8,
	PF_CS_WAKING_TARGET_CPU = 9,
	PF_CS_WAKING_PRIO = 10,
	PF_CS_WAKING_COMM_INDEX = 11,
};

/* FtraceEvent: common fields, and the event's own message (its field number) */
enum {
	PF_FEV_TIMESTAMP = 1,
	PF_FEV_PID = 2,
	PF_FEV_PRINT = 3,
	PF_FEV_SCHED_SWITCH = 4,
	PF_FEV_CPU_FREQUENCY = 11,
	PF_FEV_CPU_IDLE = 13,
	PF_FEV_SCHED_WAKEUP = 17,
	PF_FEV_SCHED_WAKING = 20,
	PF_FEV_SOFTIRQ_ENTRY = 24,
	PF_FEV_SOFTIRQ_EXIT = 25,
	PF_FEV_IRQ_HANDLER_ENTRY = 36,
	PF_FEV_IRQ_HANDLER_EXIT = 37,
	PF_FEV_SCHED_WAKEUP_NEW = 114,
	PF_FEV_TASK_NEWTASK = 235,
	PF_FEV_TASK_RENAME = 236,
	PF_FEV_SCHED_PROCESS_EXEC = 237,
	PF_FEV_SCHED_PROCESS_EXIT = 238,
	PF_FEV_SCHED_PROCESS_FORK = 239,
	PF_FEV_SCHED_PROCESS_FREE = 240,
	PF_FEV_GENERIC = 327,
};

/* The events' own fields (each message numbers from 1) */
enum {
	/* PrintFtraceEvent */
	PF_PRINT_BUF = 2,
	/* SchedSwitchFtraceEvent */
	PF_SW_PREV_COMM = 1, PF_SW_PREV_PID, PF_SW_PREV_PRIO, PF_SW_PREV_STATE,
	PF_SW_NEXT_COMM, PF_SW_NEXT_PID, PF_SW_NEXT_PRIO,
	/* SchedWaking/Wakeup/WakeupNewFtraceEvent */
	PF_WAKE_COMM = 1, PF_WAKE_PID, PF_WAKE_PRIO, PF_WAKE_SUCCESS, PF_WAKE_TARGET_CPU,
	/* SchedProcessExitFtraceEvent (FreeFtraceEvent: comm, pid, prio = 1, 2, 3) */
	PF_EXIT_COMM = 1, PF_EXIT_PID, PF_EXIT_TGID, PF_EXIT_PRIO,
	PF_FREE_COMM = 1, PF_FREE_PID, PF_FREE_PRIO,
	/* SchedProcessExecFtraceEvent */
	PF_EXEC_FILENAME = 1, PF_EXEC_PID, PF_EXEC_OLD_PID,
	/* SchedProcessForkFtraceEvent */
	PF_FORK_PARENT_COMM = 1, PF_FORK_PARENT_PID, PF_FORK_CHILD_COMM, PF_FORK_CHILD_PID,
	/* TaskNewtaskFtraceEvent */
	PF_NEWTASK_PID = 1, PF_NEWTASK_COMM, PF_NEWTASK_CLONE_FLAGS,
	/* TaskRenameFtraceEvent */
	PF_RENAME_PID = 1, PF_RENAME_OLDCOMM, PF_RENAME_NEWCOMM,
	/* IrqHandlerEntry/ExitFtraceEvent */
	PF_IRQ_IRQ = 1, PF_IRQ_NAME = 2, PF_IRQ_RET = 2,
	/* SoftirqEntry/ExitFtraceEvent */
	PF_SOFTIRQ_VEC = 1,
	/* CpuIdle/CpuFrequencyFtraceEvent */
	PF_POWER_STATE = 1, PF_POWER_CPU_ID,
	/* GenericFtraceEvent, GenericFtraceEvent.Field */
	PF_GENERIC_EVENT_NAME = 1, PF_GENERIC_FIELD,
	PF_GFIELD_NAME = 1, PF_GFIELD_STR = 3, PF_GFIELD_INT = 4,
};

/* TracePacketDefaults, PerfSampleDefaults, PerfEvents.Timebase */
enum {
	PF_DEFAULTS_PERF_SAMPLE = 12,
	PF_DEFAULTS_TIMESTAMP_CLOCK_ID = 58,
	PF_PSDEF_TIMEBASE = 1,
	PF_TB_FREQUENCY = 2,
	PF_TB_COUNTER = 4,
	PF_TB_NAME = 10,
	PF_TB_TIMESTAMP_CLOCK = 11,
	PF_TB_RAW_EVENT = 5,
	PF_RAW_TYPE = 1,
	PF_RAW_CONFIG = 2,
};

/* PerfEvents.Counter values for software events, by perf's config number */
enum {
	PF_SW_CPU_CLOCK = 1,
	PF_SW_PAGE_FAULTS = 2,
	PF_SW_TASK_CLOCK = 3,
	PF_SW_CONTEXT_SWITCHES = 4,
	PF_SW_CPU_MIGRATIONS = 5,
	PF_SW_PAGE_FAULTS_MIN = 6,
	PF_SW_PAGE_FAULTS_MAJ = 7,
	PF_HW_CPU_CYCLES = 10,
	PF_HW_INSTRUCTIONS = 11,
	PF_PERF_CLOCK_MONOTONIC = 2,
};

/* PerfSample */
enum {
	PF_PS_CPU = 1,
	PF_PS_PID = 2,
	PF_PS_TID = 3,
	PF_PS_CALLSTACK_IID = 4,
	PF_PS_CPU_MODE = 5,
	PF_PS_KERNEL_RECORDS_LOST = 17,
	PF_MODE_KERNEL = 1,
	PF_MODE_USER = 2,
};

/* InternedData, InternedString (EventCategory, EventName, DebugAnnotationName alike), Mapping, Frame, Callstack */
enum {
	PF_INTERNED_EVENT_CATEGORIES = 1,
	PF_INTERNED_EVENT_NAMES = 2,
	PF_INTERNED_DEBUG_ANNOTATION_NAMES = 3,
	PF_INTERNED_DEBUG_ANNOTATION_STRINGS = 29,
	PF_INTERNED_FUNCTION_NAMES = 5,
	PF_INTERNED_FRAMES = 6,
	PF_INTERNED_CALLSTACKS = 7,
	PF_INTERNED_BUILD_IDS = 16,
	PF_INTERNED_MAPPING_PATHS = 17,
	PF_INTERNED_MAPPINGS = 19,
	PF_ISTR_IID = 1,
	PF_ISTR_STR = 2,
	PF_MAP_IID = 1,
	PF_MAP_BUILD_ID = 2,
	PF_MAP_START = 4,
	PF_MAP_END = 5,
	PF_MAP_PATH_STRING_IDS = 7,
	PF_FRAME_IID = 1,
	PF_FRAME_FUNCTION_NAME_ID = 2,
	PF_FRAME_MAPPING_ID = 3,
	PF_FRAME_REL_PC = 4,
	PF_CALLSTACK_IID = 1,
	PF_CALLSTACK_FRAME_IDS = 2,
};

/* TrackDescriptor, ProcessDescriptor, ThreadDescriptor, CounterDescriptor */
enum {
	PF_TD_UUID = 1,
	PF_TD_NAME = 2,
	PF_TD_PROCESS = 3,
	PF_TD_THREAD = 4,
	PF_TD_PARENT_UUID = 5,
	PF_TD_COUNTER = 8,
	PF_PD_PID = 1,
	PF_PD_PROCESS_NAME = 6,
	PF_THD_PID = 1,
	PF_THD_TID = 2,
	PF_THD_THREAD_NAME = 5,
};

/* TrackEvent, DebugAnnotation */
enum {
	PF_TE_CATEGORY_IIDS = 3,
	PF_TE_DEBUG_ANNOTATIONS = 4,
	PF_TE_NAME_IID = 10,
	PF_TE_CALLSTACK_IID = 56,
	PF_TE_TYPE = 9,
	PF_TE_TRACK_UUID = 11,
	PF_TE_CATEGORIES = 22,
	PF_TE_NAME = 23,
	PF_TE_COUNTER_VALUE = 30,
	PF_TE_DOUBLE_COUNTER_VALUE = 44,
	PF_TE_SLICE_BEGIN = 1,
	PF_TE_SLICE_END = 2,
	PF_TE_INSTANT = 3,
	PF_TE_COUNTER = 4,
	PF_DA_NAME_IID = 1,
	PF_DA_BOOL = 2,
	PF_DA_UINT = 3,
	PF_DA_INT = 4,
	PF_DA_DOUBLE = 5,
	PF_DA_STRING = 6,
	PF_DA_NAME = 10,
	PF_DA_STRING_IID = 17,
};

#endif
