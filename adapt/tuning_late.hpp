// Tuning files' late sets (tuning.h, key "lateness"): JSON reader and writer
// used by tuning_io.cpp, and the collective-name lookup both use.  Internal to libarcoll.
#ifndef ARCOLL_ADAPT_TUNING_LATE_HPP
#define ARCOLL_ADAPT_TUNING_LATE_HPP

#include <nlohmann/json.hpp>
#include <string>

#include "tuning.h"

namespace arcoll {

/** The arcoll_coll_t of a collective's name (arcoll_coll_name), -1 if none
 *  (tuning_io.cpp; the choices' and the late sets' "collective"). */
int tuning_coll_from_name(const std::string &name);

/** The "lateness" array of *t, entries in the order they were added. */
nlohmann::json tuning_late_json(const arcoll_tuning_t *t);

/**
 * Read root["lateness"] (absent: nothing) into *t.  Throws
 * std::runtime_error("lateness[i]: <problem>") naming the entry and the
 * field: not an array / object, unknown collective, P < 2, root or a rank
 * out of 0..P-1, a rank given twice or equal to the root, no rank or more
 * than ARCOLL_LATE_LIST, a time negative or not finite, site not a hex
 * string, tolerant_tree not first / second / undecided, an entry given twice.
 */
void tuning_late_read(const nlohmann::json &root, arcoll_tuning_t *t);

}  // namespace arcoll

#endif
