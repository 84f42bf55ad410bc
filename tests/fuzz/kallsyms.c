// SPDX-License-Identifier: MIT
/*
 * /proc/kallsyms text: parsed, then looked up at each line's address and
 * next to it (where one symbol or module ends and the next begins).
 */
#include "symbols/kallsyms.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct f2t_ksyms *k = f2t_ksyms_parse((const char *)data, size);
	uint64_t addr[64], off;
	size_t n = fz_line_addrs(data, size, addr, 64);
	const struct f2t_kmod *mod;

	for (size_t i = 0; k && i < n; i++) {
		for (int d = -1; d <= 1; d++) {
			f2t_ksyms_lookup(k, addr[i] + (uint64_t)d, &mod, &off);
			f2t_ksyms_module(k, addr[i] + (uint64_t)d);
		}
	}
	f2t_ksyms_count(k);
	f2t_ksyms_free(k);
	return 0;
}
