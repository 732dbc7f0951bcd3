/**
 * @file halo3d_scrambled.c
 * @brief A periodic 3-D halo exchange (7-point stencil) whose rank numbering
 *        is scrambled (wl_halo.h: grid, iteration, usage).
 */
#include "wl_halo.h"

int main(int argc, char **argv) { return wl_halo_main(argc, argv, 3, "halo3d_scrambled"); }
