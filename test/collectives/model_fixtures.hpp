// Models shared by the unit tests of collectives/ (test_select.cpp,
// test_model_file.cpp).
#pragma once
#include "select.h"

// A model with a measured curve (piecewise, like SMPI's) for the second pass.
inline arcoll_model_t curve_model() {
  arcoll_model_t m;
  arcoll_model_default(&m);
  const double b[] = {0, 1024, 16384, 65536, 1 << 20, 4 << 20};
  const double t[] = {4e-6, 6.3e-6, 2.7e-5, 8e-5, 9.2e-4, 3.6e-3};
  m.inter_curve.n = 6;
  for (int i = 0; i < 6; ++i) {
    m.inter_curve.bytes[i] = b[i];
    m.inter_curve.seconds[i] = t[i];
  }
  m.inter.G = 1.0 / 1.17e9;
  return m;
}
