// SPDX-License-Identifier: MIT
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/suggest.h"

#define MAX_WORD 64	/* longer words are no typo of ours */

/* Optimal string alignment distance: insertions, deletions, substitutions, swaps. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t d[MAX_WORD + 1][MAX_WORD + 1];

	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

/* The nearest of the words @get(ctx, i), i < n, to @word[0..len). */
static const char *nearest(const char *word, size_t len,
			   const char *(*get)(const void *ctx, size_t i), const void *ctx, size_t n)
{
	/* One typo in a short word, one more for every four letters after. */
	size_t limit = 1 + len / 4, best = limit + 1, prefixed = 0;
	const char *found = NULL, *prefix_of = NULL;

	if (!len || len > MAX_WORD)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		const char *c = get(ctx, i);
		size_t lc = strlen(c), d;

		if (lc > MAX_WORD)
			continue;
		if (lc > len && !strncmp(c, word, len)) {
			prefixed++;
			prefix_of = c;
		}
		d = distance(word, len, c, lc);
		if (!d)
			return NULL;	/* known: refused for another reason */
		if (d < best && d < len) {
			best = d;
			found = c;
		}
	}
	return found ? found : prefixed == 1 ? prefix_of : NULL;
}

static const char *word_at(const void *ctx, size_t i)
{
	return ((const char *const *)ctx)[i];
}

static const char *option_at(const void *ctx, size_t i)
{
	return ((const struct option *)ctx)[i].name;
}

const char *f2t_suggest(const char *word, const char *const *cands, size_t n)
{
	return nearest(word, strlen(word), word_at, cands, n);
}

const char *f2t_suggest_option(const char *arg, const struct option *longopts)
{
	size_t n = 0;

	if (strncmp(arg, "--", 2) || !arg[2])
		return NULL;
	arg += 2;
	while (longopts[n].name)
		n++;
	return nearest(arg, strcspn(arg, "="), option_at, longopts, n);
}

void f2t_suggest_say(const char *arg, const struct option *longopts)
{
	const char *s = f2t_suggest_option(arg, longopts);

	if (s)
		fprintf(stderr, "ftrace2trace: did you mean '--%s'?\n", s);
}

const char *f2t_suggest_quote(const char *arg, const struct option *longopts, char *buf,
			      size_t len)
{
	const char *s = f2t_suggest_option(arg, longopts);

	if (s)
		snprintf(buf, len, "'%s' (did you mean '--%s'?)", arg, s);
	else
		snprintf(buf, len, "'%s'", arg);
	return buf;
}
