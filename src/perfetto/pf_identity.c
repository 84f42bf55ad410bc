// SPDX-License-Identifier: MIT
/*
 * The identity packet (pf_packets.h): SystemInfo has no field for a host
 * name, a boot id, a CPU model or the command; a ChromeEventBundle's
 * metadata holds any name and value, and trace_processor puts each in its
 * metadata table.  Numbers not known are left out, strings say "unknown".
 */
#include "model/identity.h"
#include "perfetto/pf_fields.h"
#include "perfetto/pf_packets.h"

void pf_identity(struct pb_buf *b, const struct f2t_trace_info *info)
{
	size_t pkt = pf_packet_open(b, &(struct pf_head){ 0 });
	size_t bundle = pb_open(b, PF_PKT_CHROME_EVENTS);
	struct f2t_identity id;

	f2t_identity_of(info, &id);
	for (size_t i = 0; i < id.n; i++) {
		const struct f2t_ident *f = &id.f[i];
		size_t m;

		if (!f->str && !f->known)
			continue;
		m = pb_open(b, PF_CHROME_METADATA);
		pb_str(b, PF_CMETA_NAME, f->key);
		if (f->str)
			pb_str(b, PF_CMETA_STRING, f->str);
		else
			pb_int(b, PF_CMETA_INT, f->num);
		pb_close(b, m);
	}
	pb_close(b, bundle);
	pb_close(b, pkt);
}
