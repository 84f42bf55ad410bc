// SPDX-License-Identifier: MIT
/*
 * /proc/kallsyms text: parsed, then looked up at each line's address and
 * next to it (where one symbol or module ends and the next begins).
 */
#include <stdlib.h>
#include <string.h>

#include "symbols/kallsyms.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_ksyms *k = f2t_ksyms_parse((const char *)data, size);
	char *text = malloc(size + 1);
	const char *p;
	int lines = 0;

	if (!k || !text)
		goto out;
	memcpy(text, data, size);
	text[size] = '\0';
	for (p = text; p && lines < 64; lines++) {
		uint64_t addr = strtoull(p, NULL, 16), off;
		const struct f2t_kmod *mod;

		for (int d = -1; d <= 1; d++) {
			f2t_ksyms_lookup(k, addr + (uint64_t)d, &mod, &off);
			f2t_ksyms_module(k, addr + (uint64_t)d);
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	f2t_ksyms_count(k);
out:
	free(text);
	f2t_ksyms_free(k);
	return 0;
}
