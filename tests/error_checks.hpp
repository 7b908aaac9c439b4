// Errors with no place in a file (a Scene being lowered, a glTF location) carry no offset.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "model/error.hpp"

namespace remodel::test {

inline void expect_no_file_position(const Error& e) {
  EXPECT_FALSE(e.offset.has_value()) << e.describe();
  EXPECT_EQ(e.describe().find(" at 0x"), std::string::npos) << e.describe();
}

}  // namespace remodel::test
