#include "sim/metrics/rows_in_order.h"

#include <algorithm>
#include <future>
#include <vector>

namespace sharesim {

namespace {

void write_text(std::ostream& out, const std::string& text) {
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// One block's text, in a cache line of its own. A std::string is 32 bytes: two texts filled at
// once on two threads could share a line, and every append (which writes the size) would then
// move it between the cores. Whether they did depended on where malloc put the vector: in an
// M/M/8 run that did, string::append took 5.9% of the samples, 91% of them on reading the size.
struct alignas(64) BlockText {
  std::string text;
};

}  // namespace

void write_rows_in_order(std::ostream& out, std::size_t rows, unsigned threads, const FormatRows& format) {
  threads = std::min(threads, kMaxFormatThreads);
  const std::size_t blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
  const auto block_end = [rows](std::size_t block) { return std::min(rows, (block + 1) * kRowsPerBlock); };
  if (threads <= 1 || blocks <= 1) {
    std::string text;
    for (std::size_t block = 0; block < blocks; ++block) {
      text.clear();
      format(block * kRowsPerBlock, block_end(block), text);
      write_text(out, text);
    }
    return;
  }
  // Two generations of `threads` texts: one round of blocks is formatted into one while the
  // previous round is written from the other. Declared before the futures, so that unwinding
  // (an exception from a block) waits for every task before their texts go.
  std::vector<BlockText> texts(2 * static_cast<std::size_t>(threads));
  const auto text_of = [&texts](std::size_t block) -> std::string& { return texts[block % texts.size()].text; };
  std::vector<std::future<void>> round;
  std::size_t written = 0;  // blocks written so far
  for (std::size_t first = 0; first < blocks; first += threads) {
    const std::size_t last = std::min(blocks, first + threads);
    for (std::size_t block = first; block < last; ++block) {
      round.push_back(std::async(std::launch::async, [&format, &text_of, &block_end, block] {
        std::string& text = text_of(block);
        text.clear();
        format(block * kRowsPerBlock, block_end(block), text);
      }));
    }
    for (; written < first; ++written) write_text(out, text_of(written));
    for (std::future<void>& task : round) task.get();
    round.clear();
  }
  for (; written < blocks; ++written) write_text(out, text_of(written));
}

}  // namespace sharesim
