// SPDX-License-Identifier: MIT
/*
 * Build-id notes through libelf/libdw (dwelf_elf_gnu_build_id walks the
 * note sections or, in a stripped file, the PT_NOTE segments).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <elfutils/libdwelf.h>

#include "symbols/buildid.h"

int f2t_build_id_read(Elf *elf, struct f2t_build_id *id)
{
	const void *p = NULL;
	ssize_t n = dwelf_elf_gnu_build_id(elf, &p);

	id->len = 0;
	if (n <= 0 || !p)
		return -ENOENT;
	if (n > F2T_BUILD_ID_MAX)
		n = F2T_BUILD_ID_MAX;
	memcpy(id->b, p, (size_t)n);
	id->len = (uint8_t)n;
	return 0;
}

int f2t_build_id_of_fd(int fd, struct f2t_build_id *id)
{
	int ret;
	Elf *elf;

	id->len = 0;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		ret = -ENOEXEC;
	else
		ret = f2t_build_id_read(elf, id);
	if (elf)
		elf_end(elf);
	return ret;
}

char *f2t_build_id_hex(const struct f2t_build_id *id, char *hex, size_t hexlen)
{
	static const char digits[] = "0123456789abcdef";
	size_t n = 0;

	for (size_t i = 0; i < id->len && n + 2 < hexlen; i++) {
		hex[n++] = digits[id->b[i] >> 4];
		hex[n++] = digits[id->b[i] & 15];
	}
	if (hexlen)
		hex[n] = '\0';
	return hex;
}

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int f2t_build_id_parse(const char *hex, size_t len, struct f2t_build_id *id)
{
	id->len = 0;
	if (len % 2 || len / 2 > F2T_BUILD_ID_MAX)
		return -EINVAL;
	for (size_t i = 0; i < len; i += 2) {
		int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);

		if (hi < 0 || lo < 0) {
			id->len = 0;
			return -EINVAL;
		}
		id->b[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	id->len = (uint8_t)(len / 2);
	return 0;
}
