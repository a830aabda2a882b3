// write_rows_in_order (sim/metrics/rows_in_order.h): the table it writes is the same for any
// thread count, block edges included, and a failing block's exception reaches the caller.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/metrics/rows_in_order.h"

namespace sharesim {
namespace {

// Row i is "<i>,<i * i>\n": any block written twice, lost or out of order shows.
void format_squares(std::size_t begin, std::size_t end, std::string& text) {
  for (std::size_t i = begin; i < end; ++i) text += std::to_string(i) + "," + std::to_string(i * i) + "\n";
}

std::string squares(std::size_t rows, unsigned threads) {
  std::ostringstream out;
  write_rows_in_order(out, rows, threads, format_squares);
  return out.str();
}

TEST(RowsInOrder, EveryThreadCountWritesTheRowsOnceInOrder) {
  for (const std::size_t rows : {std::size_t{0}, std::size_t{1}, kRowsPerBlock - 1, kRowsPerBlock,
                                 kRowsPerBlock + 1, 5 * kRowsPerBlock + 3}) {
    std::string expected;
    format_squares(0, rows, expected);
    for (const unsigned threads : {0u, 1u, 2u, 3u, 7u, kMaxFormatThreads + 1, 64u}) {
      EXPECT_EQ(squares(rows, threads), expected) << rows << " rows, " << threads << " threads";
    }
  }
}

TEST(RowsInOrder, AnExceptionFromABlockReachesTheCaller) {
  for (const unsigned threads : {1u, 4u}) {
    std::ostringstream out;
    const auto failing = [](std::size_t begin, std::size_t end, std::string& text) {
      if (begin == 3 * kRowsPerBlock) throw std::runtime_error("block 3");
      format_squares(begin, end, text);
    };
    EXPECT_THROW(write_rows_in_order(out, 10 * kRowsPerBlock, threads, failing), std::runtime_error) << threads;
  }
}

// A stream that fails every write (a full disk), set to throw: the writer's exception reaches
// the caller, and the formatting threads, waiting for room, are stopped rather than left
// running (a thread left joinable would terminate the process).
class FailingBuffer : public std::streambuf {
 protected:
  std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
  int_type overflow(int_type) override { return traits_type::eof(); }
};

TEST(RowsInOrder, AFailingWriteReachesTheCallerAndStopsTheThreads) {
  for (const unsigned threads : {1u, 2u, 4u}) {
    FailingBuffer buffer;
    std::ostream out(&buffer);
    out.exceptions(std::ios::badbit);
    EXPECT_THROW(write_rows_in_order(out, 20 * kRowsPerBlock, threads, format_squares), std::ios::failure)
        << threads;
  }
}

// Blocks that take very different times (every third one slow) still come out in order: a
// thread that is done takes the next block while another is still formatting its own.
TEST(RowsInOrder, SlowAndFastBlocksComeOutInOrder) {
  const auto uneven = [](std::size_t begin, std::size_t end, std::string& text) {
    if ((begin / kRowsPerBlock) % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    format_squares(begin, end, text);
  };
  std::string expected;
  format_squares(0, 12 * kRowsPerBlock + 5, expected);
  for (const unsigned threads : {2u, 3u, 8u}) {
    std::ostringstream out;
    write_rows_in_order(out, 12 * kRowsPerBlock + 5, threads, uneven);
    EXPECT_EQ(out.str(), expected) << threads;
  }
}

}  // namespace
}  // namespace sharesim
