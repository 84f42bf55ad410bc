// SPDX-License-Identifier: MIT
/*
 * The recording's identity (model/identity.h) in an FXT file, twice: as
 * the arguments of one instant event "ftrace2trace_recording" next to the
 * run's counts, where any FXT reader sees them (FXT's metadata records
 * carry no names or values), and as Perfetto's SystemInfo and metadata
 * packets in the file's Perfetto blob, which trace_processor reads into
 * its metadata table as it does from a .pftrace.
 */
#include <string.h>

#include "fxt/fxt_writer-local.h"
#include "model/identity.h"
#include "perfetto/pf_packets.h"

void fxt_identity_packets(struct f2t_writer *w)
{
	struct fxt_priv *p = w->priv;

	pf_system_info(&p->pfbuf, w->info);
	pf_identity(&p->pfbuf, w->info);
}

int fxt_write_identity(struct f2t_writer *w, uint64_t ts)
{
	struct fxt_priv *p = w->priv;
	struct fxt_args args = { .words = p->argw };
	struct fxt_event_head e = { .ts = ts, .thread = fxt_thread_inline(0, 0), .args = &args };
	struct f2t_identity id;
	int ret;

	_Static_assert(F2T_IDENTITY_MAX <= FXT_MAX_ARGS, "one record holds the identity");
	f2t_identity_of(w->info, &id);
	ret = fxt_string_ref(w, "ftrace2trace", strlen("ftrace2trace"), &e.category);
	if (!ret)
		ret = fxt_string_ref(w, "ftrace2trace_recording", strlen("ftrace2trace_recording"),
				     &e.name);
	for (size_t i = 0; !ret && i < id.n; i++) {
		const struct f2t_ident *f = &id.f[i];
		struct fxt_str name, v;

		ret = fxt_string_ref(w, f->key, strlen(f->key), &name);
		if (!ret && f->str)
			ret = fxt_string_ref(w, f->str, strlen(f->str), &v);
		if (ret)
			break;
		if (f->str)
			ret = fxt_arg_string(p->argw + args.nwords, name, v);
		else if (f->known)
			ret = fxt_arg_int64(p->argw + args.nwords, name, f->num);
		else
			ret = fxt_arg_null(p->argw + args.nwords, name);
		if (ret < 0)
			break;
		args.nwords = (uint16_t)(args.nwords + ret);
		args.count++;
		ret = 0;
	}
	return ret ? ret : fxt_emit_encoded(w, fxt_instant(p->rec, &e));
}
