// SPDX-License-Identifier: MIT
/*
 * burn (burn.c) built without frame pointers (-O2 -fomit-frame-pointer, no
 * -g: only the .eh_frame gcc emits by default describes its frames), for
 * the --call-graph dwarf tests: the kernel's frame-pointer walk cannot find
 * its callers, libdw's CFI unwinder can.
 */
#include "burn.c"
