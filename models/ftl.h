/*
 * ftl.h - the write buffer, placement and the host command paths (models/ftl.c).
 */
#ifndef FTLSIM_FTL_H
#define FTLSIM_FTL_H

#include "models/parts.h"

void ftl_init(Drive *d); /* the write buffer; registers host reads and host programs with the scheduler */
void ftl_release(Drive *d);
/* For tests (hostif_general_only()): every write through write_issue(),
 * none by ftl_write_arrive()'s short path, and every read through
 * queue_reads(). */
void ftl_general_only(Drive *d);
uint64_t ftl_unmap(Drive *d, uint64_t first, uint64_t end); /* lpns [first, end); returns how many were mapped */
/* The write buffer's invariants: buffered lpns and ring entries agree. */
bool ftl_check(const Drive *d, char *why, size_t why_len);
uint64_t ftl_buffered_bytes(const Drive *d); /* host data in the write buffer, not yet programmed */
void ftl_unmapped(Drive *d); /* after ftl_unmap: buffer space freed may admit writes, complete flushes */
void ftl_write_arrive(Drive *d, uint32_t cmd); /* after the controller took the command */
void ftl_read_start(Drive *d, uint32_t cmd);
void ftl_flush_start(Drive *d, uint32_t cmd);

#endif
