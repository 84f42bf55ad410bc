/* SPDX-License-Identifier: MIT */
/*
 * Off-CPU episodes (F2T_EV_OFFCPU) in the model: each becomes a complete
 * slice on its thread (offcpu_items.c).  What the slice is named for is
 * shared with the off-CPU report.
 */
#ifndef F2T_MODEL_OFFCPU_H
#define F2T_MODEL_OFFCPU_H

#include <stdint.h>

#include "model/event.h"

/**
 * f2t_offcpu_blocker() - the kernel function a blocked stack is waiting in
 * @frames: the episode's stack, innermost first
 * @n: how many
 *
 * Return: the first kernel frame outside the scheduler's own functions
 * (schedule, __schedule, schedule_timeout, io_schedule...), or NULL.
 */
const struct f2t_frame *f2t_offcpu_blocker(const struct f2t_frame *frames, uint32_t n);

#endif
