/* The first lateness exchange's wait for records; see late_first.h. */
#include "late_first.h"

int arcoll_late_first_spare(int P) { return P >= 16 ? 1 + P / 32 : 0; }

double arcoll_late_first_patience(double bulk_s, double floor_s) {
  double t = bulk_s > 0 ? ARCOLL_LATE_FIRST_PATIENCE * bulk_s : 0.0;
  if (floor_s > t) t = floor_s;
  return t > 0 ? t : 0.0;
}
