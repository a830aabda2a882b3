#pragma once
// What the regression tests share: a scratch directory of the test's own under the system's
// temporary one, removed around each test, and input_error_of (tests/unit/input_error_of.h).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "tests/unit/input_error_of.h"

namespace sharesim::testing {

class ScratchDirTest : public ::testing::Test {
 protected:
  // `prefix`: the directory's name before the process id, one per test file.
  explicit ScratchDirTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override {
    root_ = std::filesystem::temp_directory_path() / (prefix_ + std::to_string(::getpid()));
    std::filesystem::remove_all(root_);
  }
  void TearDown() override { std::filesystem::remove_all(root_); }

  // Writes root/dir/name and returns root/dir.
  std::string write(const std::string& dir, const std::string& name, const std::string& text) {
    std::filesystem::create_directories(root_ / dir);
    std::ofstream(root_ / dir / name) << text;
    return (root_ / dir).string();
  }

  std::filesystem::path root_;

 private:
  std::string prefix_;
};

}  // namespace sharesim::testing
