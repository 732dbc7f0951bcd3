/**
 * @file halo2d_scrambled.c
 * @brief A periodic 2-D halo exchange (5-point stencil) whose rank numbering
 *        is scrambled (wl_halo.h: grid, iteration, usage).
 */
#include "wl_halo.h"

int main(int argc, char **argv) { return wl_halo_main(argc, argv, 2, "halo2d_scrambled"); }
