/* SPDX-License-Identifier: MIT */
/*
 * The capture's ring-buffer source: decodes a capture's ring-buffer pages
 * with libtraceevent (the kernel's own format files, saved in the capture)
 * and yields events in timestamp order, merging the per-CPU streams.  Its
 * text for an event is the kernel's own (f2t_event_text()).
 */
#ifndef F2T_CAPSRC_H
#define F2T_CAPSRC_H

#include "capture/capture.h"
#include "model/recording.h"
#include "source/source.h"

/**
 * f2t_capsrc_open() - the ring-buffer events of a capture
 * @cap: the capture; must outlive the source
 * @rec: what the capture says about the recording: its task table names
 *	 the tasks in the text (as of each event), its kallsyms and printk
 *	 formats name kernel addresses
 *
 * Return: the source, or NULL with errno set after reporting why (naming
 * the file and offset).
 */
struct f2t_source *f2t_capsrc_open(const struct f2t_capr *cap, const struct f2t_recording *rec);

#endif
