/**
 * @file algo_names.h
 * @brief Names of every collective algorithm, without MPI (for the `arcoll`
 *        command line, which does not link MPI).  The table is generated at
 *        build time by collectives/algo_names_gen.c from the algorithm tables
 *        (select.h: arcoll_algorithm_table), so it cannot drift from them.
 */
#ifndef ARCOLL_COLLECTIVES_ALGO_NAMES_H
#define ARCOLL_COLLECTIVES_ALGO_NAMES_H

#ifdef __cplusplus
extern "C" {
#endif

/** One algorithm: collective ("bcast", ...), name ("binomial", ...), source. */
typedef struct arcoll_algo_name {
  const char *collective;
  const char *name;
  const char *source; /**< seed file + formula, or paper (the table's `source`) */
  int segmented;      /**< 1 when the algorithm honours a segment size */
} arcoll_algo_name_t;

/** All algorithms, collectives in select.h order, each table in its order. */
extern const arcoll_algo_name_t arcoll_algo_names[];
extern const int arcoll_algo_names_count;

#ifdef __cplusplus
}
#endif
#endif
