/* SPDX-License-Identifier: MIT */
/*
 * The capture's ring-buffer source: decodes a capture's ring-buffer pages
 * with libtraceevent (the kernel's own format files, saved in the capture)
 * and yields events in timestamp order, merging the per-CPU streams.  Its
 * text for an event is the kernel's own (f2t_event_text()).
 */
#ifndef F2T_CAPSRC_H
#define F2T_CAPSRC_H

#include <stdbool.h>

#include "capture/capture.h"
#include "model/recording.h"
#include "source/source.h"

/**
 * f2t_capsrc_open() - the ring-buffer events of a capture
 * @cap: the capture; must outlive the source
 * @rec: what the capture says about the recording: its kallsyms and printk
 *	 formats name kernel addresses (the names of tasks in the text are
 *	 given with each call, f2t_event_text())
 *
 * Return: the source, or NULL with errno set after reporting why (naming
 * the file and offset).
 */
struct f2t_source *f2t_capsrc_open(const struct f2t_capr *cap, const struct f2t_recording *rec);

struct tep_handle;

/**
 * f2t_capsrc_formats() - a capture's header page and event formats, each
 * checked (fmtcheck.h) then parsed by libtraceevent
 * @cap: the capture
 *
 * Return: the tep (tep_free() it), or NULL with errno set after reporting why.
 */
struct tep_handle *f2t_capsrc_formats(const struct f2t_capr *cap);

/**
 * f2t_capsrc_open_with() - as f2t_capsrc_open(), with formats parsed before
 * @cap: the capture whose ring-buffer pages are read
 * @rec: as for f2t_capsrc_open()
 * @tep: f2t_capsrc_formats() of a capture with the same formats and
 *	 sub-buffer size; lent, it must outlive the source
 * @tep_symbols: whether @tep has been given the kallsyms and printk formats,
 *	 shared by every source lent @tep (f2t_rawdec_share_tep()); NULL when
 *	 it is lent to this one only
 *
 * Many captures with the same formats (the ring-buffer fuzz harness's) are
 * decoded without parsing the formats for each.
 *
 * Return: the source, or NULL with errno set after reporting why.
 */
struct f2t_source *f2t_capsrc_open_with(const struct f2t_capr *cap,
					const struct f2t_recording *rec, struct tep_handle *tep,
					bool *tep_symbols);

#endif
