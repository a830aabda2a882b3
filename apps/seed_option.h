#pragma once
// The `--seed N` option of the commands that run scenarios (run, generate, compare).
#include <cstdint>
#include <string>

namespace sharesim {

// N as an integer from 0 to INT64_MAX; InputError("--seed", ...) otherwise. Parsed here rather
// than by CLI11, which wraps "-1" and saturates overflow silently.
std::int64_t parse_seed_option(const std::string& text);

// CLI11 check of an `-o DIR` option: "" is fine, an empty value given on purpose (-o '') is an
// error rather than a silent fall back to the default directory.
std::string empty_output_problem(const std::string& value);

}  // namespace sharesim
