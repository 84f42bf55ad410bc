/* SPDX-License-Identifier: MIT */
/*
 * C++ (Itanium ABI) names made readable, through the C++ runtime's own
 * demangler (__cxa_demangle, libstdc++).
 */
#ifndef F2T_DEMANGLE_H
#define F2T_DEMANGLE_H

/**
 * f2t_demangle() - the readable form of a mangled name
 *
 * Return: a malloc'd string, or NULL when @name is not a mangled C++ name
 * (or memory ran out): the caller keeps @name as it is.
 */
char *f2t_demangle(const char *name);

#endif
