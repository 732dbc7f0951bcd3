/**
 * @file poll_pause.h
 * @brief Internal to libarcoll.so: the pause between two polls of a timed wait.
 *
 * Under SMPI a poll (PMPI_Test*) costs no simulated time with smpi/test:0
 * (tools/adapt-bench.sh), so a loop that polls until a time limit would never
 * see the clock move: it sleeps 2 us of simulated time between polls.  On
 * real MPI the poll itself takes the time: no pause.
 */
#ifndef ARCOLL_ADAPT_POLL_PAUSE_H
#define ARCOLL_ADAPT_POLL_PAUSE_H

#include <mpi.h>

#ifdef ARCOLL_SMPI
#define ARCOLL_POLL_PAUSE() smpi_usleep(2)
#else
#define ARCOLL_POLL_PAUSE() ((void)0)
#endif

#endif
