/* SPDX-License-Identifier: MIT */
/*
 * The check an event format file from a capture must pass before it is
 * handed to libtraceevent, whose parser trusts its input (a truncated or
 * misspelt format can make it dereference NULL or recurse without bound).
 * What passes is the shape the kernel writes, field by field, with offsets
 * that fit a ring-buffer record; see fmtcheck.c for the rules.  Likewise
 * for the printk formats.
 */
#ifndef F2T_FMTCHECK_H
#define F2T_FMTCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "capture/capture.h"

struct tep_handle;

/* Longest format file accepted; the kernel's longest are a few KB. */
#define F2T_FORMAT_MAX (64 * 1024)

/**
 * f2t_format_check() - is @text a well-formed event format file?
 * @text: the format file ("name: ...\nID: ...\nformat:\n..."), not terminated
 * @len: its length
 * @max_size: the largest record a sub-buffer can hold; every field must
 *	      end within it
 * @id: set to the event's ID when it is well-formed (may be NULL)
 * @why: set to the reason when it is not (a static string)
 * @at: set to the byte offset in @text where the problem is
 *
 * Return: 0, or -EINVAL with @why and @at set.
 */
int f2t_format_check(const char *text, size_t len, uint32_t max_size, uint32_t *id,
		     const char **why, size_t *at);

/**
 * f2t_format_check_record() - check a capture's EVENT_FORMAT record
 * @path: the capture, for the message
 * @r: the record: "SYSTEM\0" then the format file
 * @subbuf_size: the capture's ring-buffer sub-buffer size
 * @tep: the formats parsed so far: a second format with the same ID is
 *	 refused (the decoder keeps one handler per ID)
 *
 * A record refused is reported ("PATH: offset N: ...", the offset in the
 * file of the first byte that does not fit).
 *
 * Return: 0, or -EINVAL.
 */
int f2t_format_check_record(const char *path, const struct f2t_cap_rec *r, uint32_t subbuf_size,
			    struct tep_handle *tep);

/**
 * f2t_printk_formats_check() - can libtraceevent read these printk formats?
 * @text: tracefs printk_formats ("ADDRESS : \"FORMAT\"" lines), read up to
 *	  its first NUL as tep_parse_printk_formats() reads it
 * @at: set to the offset of the first line it would read past
 *
 * Return: 0, or -EINVAL with @at set.
 */
int f2t_printk_formats_check(const char *text, size_t *at);

#endif
