// Shared by the placement tests: expect_error(fn, {parts...}) expects `fn` to
// throw arcoll::placement::TopologyError whose message contains every string
// of `parts`.
#pragma once

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "topology.hpp"

template <class F>
void expect_error(F fn, std::initializer_list<std::string> parts) {
  try {
    fn();
    FAIL() << "no exception";
  } catch (const arcoll::placement::TopologyError &e) {
    std::string m = e.what();
    for (auto &p : parts) EXPECT_NE(m.find(p), std::string::npos) << "message: " << m << "\nmissing: " << p;
  }
}
