/* SPDX-License-Identifier: MIT */
/*
 * What the libFuzzer harnesses share: quiet logging and stdout to
 * /dev/null, the fixture files, captures built in memory and converted
 * through the public entry point f2t_convert(), and a capture mapping that
 * AddressSanitizer can see the end of (fuzz_common.c).
 */
#ifndef F2T_FUZZ_H
#define F2T_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * Once per process: warnings off, stdout (where outputs go) to /dev/null,
 * and error messages too unless F2T_FUZZ_VERBOSE is set.
 */
void fz_init(void);

/*
 * The file tests/REL (or $F2T_TESTS/REL), read once and kept;
 * aborts when it is missing, since every input would then test nothing.
 */
const char *fz_fixture(const char *rel, size_t *len);

/*
 * The hex number at the start of each of the first @max lines of @data
 * into @out (0 where there is none): addresses to look up.  Returns how
 * many lines.
 */
size_t fz_line_addrs(const uint8_t *data, size_t size, uint64_t *out, size_t max);

/* A capture file being built in memory (capture/capture.h's layout). */
struct fz_cap {
	unsigned char *b;
	size_t len, cap;
};

/* Starts @c with the file header. */
void fz_cap_begin(struct fz_cap *c);
/* Appends one record, padded to 8 bytes. */
void fz_cap_add(struct fz_cap *c, uint32_t type, uint32_t arg, const void *data, size_t len);
/*
 * Appends the records of TYPE (all of them, or those of ARG when ARG >= 0)
 * from tests/fuzz/base.cap, a small real capture (tests/fuzz/make-seeds.py),
 * with their arg changed to NEWARG when NEWARG >= 0.
 */
void fz_cap_add_base(struct fz_cap *c, uint32_t type, long arg, long newarg);
/* Appends the END record. */
void fz_cap_end(struct fz_cap *c);

/*
 * Converts the capture bytes @data/@len into FXT, JSON and systrace text
 * (all to stdout, i.e. /dev/null) through f2t_convert().  The capture is
 * read from a heap copy of exactly @len bytes, so reading past its end is
 * an AddressSanitizer error rather than a read of whatever follows a
 * file mapping.
 */
int fz_convert(const void *data, size_t len);

/* Writes @data/@len to the capture file fz_convert() reads: its path. */
const char *fz_cap_file(const void *data, size_t len);

/*
 * @data/@len in a file of its own, kept for the life of the process (a
 * fixed capture read once): its path.  Mapped as is, not copied.
 */
const char *fz_kept_file(const void *data, size_t len);

struct f2t_convert_opts;
/* fz_convert()'s outputs: FXT, JSON and systrace text, all to stdout. */
void fz_convert_opts(struct f2t_convert_opts *o);

struct f2t_input_kind;
/*
 * Opens @data/@size (in a memfd) as an input of @kind and reads every event
 * with its text and fields, as a conversion does.
 */
void fz_read_input(const struct f2t_input_kind *kind, const uint8_t *data, size_t size);

/*
 * A fixed capture made of tests/fuzz/base.cap's META, HEADER_PAGE, every
 * EVENT_FORMAT, TASKS, MAPS and BUILD_IDS (and KALLSYMS if asked), opened once per process
 * as an input (its recording) and as a capture (its formats, parsed once:
 * most of an input's time otherwise).
 */
struct fz_fixed {
	struct f2t_input *base;
	struct f2t_capr *cap;
	struct tep_handle *tep;
	bool tep_symbols;		/* the tep's own symbol tables: loaded */
	const struct f2t_cap_rec *tasks;
};

/* Opens @fx (aborts when it cannot: every input would test nothing). */
void fz_fixed_open(struct fz_fixed *fx, bool kallsyms);

struct f2t_text;
/*
 * The ring-buffer pages of the capture at @path as @in, a source decoded
 * with @fx's formats: @fx's recording, its kallsyms replaced by @kallsyms
 * unless NULL, with task tables of its own.  in->events is NULL when the
 * pages cannot be read.  Returns the capture, for fz_fixed_close().
 */
struct f2t_capr *fz_fixed_input(struct fz_fixed *fx, const char *path, struct f2t_input *in,
				const struct f2t_text *kallsyms);

/* Closes what fz_fixed_input() opened. */
void fz_fixed_close(struct f2t_input *in, struct f2t_capr *cap);

#endif
