/**
 * @file late_wire.h
 * @brief The compact wire format of one rank's records of an exchange
 *        (arcoll_late_msg_t, lateness.h): what every rank sends the
 *        coordinator at each lateness exchange (late_tracker.h, step 1).
 *
 * Why: the records of all P - 1 ranks reach the coordinator - the root of
 * a rooted collective - at once, and while they arrive they share its link
 * with the collective's own data.  As raw structs (16 + 8 x 48 = 400 bytes)
 * they cost, SMPI flat P = 256, 10 Gbit/s, 32 KiB back-to-back bcast, sum
 * over ranks of the time inside the call after each exchange start: 0.063 s
 * more than the calls around it (0.25 ms per rank, every 32..64 calls);
 * 112-byte messages (2 samples, the same run) cost 0.008 s.  SimGrid's
 * default network factors charge 257..732-byte messages a third of the
 * bandwidth of shorter ones, and any network carries fewer bytes faster.
 *
 * Format (native byte order: the ranks of one job share it):
 *   header   n (uint8, 0..ARCOLL_LATE_SAMPLES), first_call (uint64),
 *            base (double: entry of record 0, seconds, common clock);
 *   record j flags byte: ARCOLL_LATE_* flags (low 6 bits) and
 *            ARCOLL_LATE_WIRE_SAME (bit 7: site, pos, root, t_level equal
 *            to record j - 1's, not repeated);
 *            entry delta (float, seconds: entry_j - exit_{j-1}; record 0:
 *            entry_0 - base = 0), duration exit - entry (float, seconds),
 *            gap (float, seconds);
 *            unless SAME: site (uint64), pos, root (int32), t_level (float).
 * Sizes: 17 + 33 bytes for the first record + 13 per further one when the
 * calls share a site and root: 141 bytes for 8 samples; at most
 * ARCOLL_LATE_WIRE_MAX (281).  A slot never filled (flags 0) is its flags
 * byte alone.  Precision: times are rebuilt from float
 * differences of consecutive calls (relative error 6e-8 of each entry gap
 * and duration: under 1 us for calls up to 10 s apart), where the raw
 * records carried doubles; what the summary compares them with - a tree
 * level, tens of microseconds - is far above it.
 */
#ifndef ARCOLL_ADAPT_LATE_WIRE_H
#define ARCOLL_ADAPT_LATE_WIRE_H

#include "lateness.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Bit of a record's flags byte: its site, pos, root and t_level are record j - 1's. */
#define ARCOLL_LATE_WIRE_SAME 0x80
/** Largest packed message, bytes (every record with its own site). */
#define ARCOLL_LATE_WIRE_MAX (17 + ARCOLL_LATE_SAMPLES * 33)

/** Pack m (m->n records, 0..ARCOLL_LATE_SAMPLES) into buf
 *  (ARCOLL_LATE_WIRE_MAX bytes).  Returns the bytes used, or -1 when m->n
 *  is out of range or a record's flags do not fit the low 6 bits. */
int arcoll_late_msg_pack(const arcoll_late_msg_t *m, unsigned char *buf);

/** Unpack `bytes` bytes of buf into *m (times rebuilt as described in the
 *  file comment; pad = 0).  Returns 0, or -1 when the bytes are not a
 *  packed message (sizes, counts or a SAME bit on record 0): *m is then
 *  zeroed. */
int arcoll_late_msg_unpack(const unsigned char *buf, int bytes, arcoll_late_msg_t *m);

#ifdef __cplusplus
}
#endif
#endif
