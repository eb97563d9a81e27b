/*
 * nand.h - taking erased blocks and returning them (models/nand.c).
 */
#ifndef FTLSIM_NAND_H
#define FTLSIM_NAND_H

#include "models/parts.h"

void nand_init(Drive *d);
uint32_t nand_take_free(Drive *d, uint32_t die, CellMode m);
uint32_t nand_take_static(Drive *d, uint32_t die); /* a free static SLC block or NO_BLOCK */
void nand_put_free(Drive *d, uint32_t b);
void nand_erased(void *ctx, uint32_t b); /* erase completion: freed, and the dies offered work */

#endif
