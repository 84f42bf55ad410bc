/* SPDX-License-Identifier: MIT */
/*
 * GNU build-ids: how a file is known to be the one that was mapped, and how
 * its separate debug file is found (/usr/lib/debug/.build-id/xx/rest.debug).
 */
#ifndef F2T_BUILDID_H
#define F2T_BUILDID_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <libelf.h>

#define F2T_BUILD_ID_MAX 64	/* bytes; GNU ones are 20 */

struct f2t_build_id {
	uint8_t len;		/* 0: none known */
	uint8_t b[F2T_BUILD_ID_MAX];
};

/**
 * f2t_build_id_read() - the build-id note of an open ELF
 *
 * Return: 0, or -ENOENT when it has none.
 */
int f2t_build_id_read(Elf *elf, struct f2t_build_id *id);

/**
 * f2t_build_id_of_fd() - the build-id of the ELF file open at @fd
 *
 * @fd is the caller's (see util/openreg.h for files of others): this
 * function opens nothing.
 *
 * Return: 0, -ENOENT (no note), -ENOEXEC (not ELF) or another negative errno.
 */
int f2t_build_id_of_fd(int fd, struct f2t_build_id *id);

/* Lowercase hex into @hex (2 * len + 1 bytes at least); returns @hex. */
char *f2t_build_id_hex(const struct f2t_build_id *id, char *hex, size_t hexlen);

/* Parses lowercase or uppercase hex.  Return: 0 or -EINVAL. */
int f2t_build_id_parse(const char *hex, size_t len, struct f2t_build_id *id);

static inline int f2t_build_id_eq(const struct f2t_build_id *a, const struct f2t_build_id *b)
{
	return a->len == b->len && !memcmp(a->b, b->b, a->len);
}

#endif
