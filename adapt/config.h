/**
 * @file config.h
 * @brief Run-time configuration of libarcoll from environment variables.
 *
 * | variable                          | values                         | default  |
 * |-----------------------------------|--------------------------------|----------|
 * | ARCOLL_BCAST_ALGORITHM            | adaptive, binomial, pmpi       | adaptive |
 * | ARCOLL_BCAST_SEGMENT              | segment size in bytes, 0 = none | 65536   |
 * | ARCOLL_BCAST_EXCHANGE_INTERVAL    | calls per lateness exchange 1..64 | 1     |
 * | ARCOLL_BCAST_EWMA_ALPHA           | EWMA weight of newest call (0,1] | 0.5    |
 * | ARCOLL_DEBUG                      | 0 or 1 (print orders to stderr) | 0       |
 */
#ifndef ARCOLL_ADAPT_CONFIG_H
#define ARCOLL_ADAPT_CONFIG_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { ARCOLL_BCAST_ADAPTIVE = 0, ARCOLL_BCAST_BINOMIAL, ARCOLL_BCAST_PMPI } arcoll_bcast_algo_t;

typedef struct arcoll_config {
  arcoll_bcast_algo_t bcast_algorithm;
  long long segment_bytes; /**< bytes; 0 = one segment */
  int exchange_interval;   /**< calls between lateness exchanges */
  double ewma_alpha;
  int debug;
} arcoll_config_t;

/**
 * Parse the environment into *cfg.  On an invalid value writes a message
 * naming the variable, the value and the valid values into err (size errlen)
 * and returns -1; returns 0 on success.
 */
int arcoll_config_parse(arcoll_config_t *cfg, char *err, int errlen);

#ifdef __cplusplus
}
#endif
#endif
