#include "sim/metrics/rows_in_order.h"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace sharesim {

namespace {

void write_text(std::ostream& out, const std::string& text) {
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

// How many blocks `rows` rows make, and where block `block` ends: its rows are
// [block * kRowsPerBlock, block_end).
std::size_t block_count(std::size_t rows) { return (rows + kRowsPerBlock - 1) / kRowsPerBlock; }
std::size_t block_end(std::size_t rows, std::size_t block) { return std::min(rows, (block + 1) * kRowsPerBlock); }

// One block's text, in a cache line of its own. A std::string is 32 bytes: two texts filled at
// once on two threads could share a line, and every append (which writes the size) would then
// move it between the cores. Whether they did depended on where malloc put the vector: in an
// M/M/8 run that did, string::append took 5.9% of the samples, 91% of them on reading the size.
struct alignas(64) BlockText {
  std::string text;
  std::size_t block = 0;  // the block whose text it holds
  bool ready = false;     // formatted, not yet written
};

// The formatting threads and the writer share a ring of 2 * threads texts: block b goes into
// text b % size, once block b - size has been written from it. Each thread takes the next block
// as soon as it has finished one, so no thread waits for the slowest block of a round (the
// earlier version formatted rounds of `threads` blocks and waited for the whole round).
class BlockPipeline {
 public:
  BlockPipeline(std::size_t rows, unsigned threads, const FormatRows& format)
      : rows_(rows), blocks_(block_count(rows)), format_(format), texts_(2 * threads) {}

  // Formats blocks until none is left or a block failed.
  void format_blocks() {
    std::unique_lock lock(mutex_);
    while (true) {
      changed_.wait(lock, [this] { return failed_ || next_ >= blocks_ || next_ < written_ + texts_.size(); });
      if (failed_ || next_ >= blocks_) return;
      const std::size_t block = next_++;
      BlockText& slot = texts_[block % texts_.size()];
      lock.unlock();
      try {
        slot.text.clear();
        format_(block * kRowsPerBlock, block_end(rows_, block), slot.text);
      } catch (...) {
        lock.lock();
        if (!failed_) error_ = std::current_exception();
        failed_ = true;
        changed_.notify_all();
        return;
      }
      lock.lock();
      slot.block = block;
      slot.ready = true;
      changed_.notify_all();
    }
  }

  // Writes the blocks in order as they become ready; stops at a block that failed (error()).
  void write_blocks(std::ostream& out) {
    for (std::size_t block = 0; block < blocks_; ++block) {
      BlockText& slot = texts_[block % texts_.size()];
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return failed_ || (slot.ready && slot.block == block); });
        if (failed_) break;
      }
      write_text(out, slot.text);  // no thread writes into this text until it is released below
      std::lock_guard lock(mutex_);
      slot.ready = false;
      ++written_;
      changed_.notify_all();
    }
  }

  // Stops the formatting threads early (the writer failed).
  void abandon() {
    std::lock_guard lock(mutex_);
    failed_ = true;
    changed_.notify_all();
  }

  std::exception_ptr error() const { return error_; }

 private:
  const std::size_t rows_;
  const std::size_t blocks_;
  const FormatRows& format_;
  std::vector<BlockText> texts_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::size_t next_ = 0;     // the next block to format
  std::size_t written_ = 0;  // blocks written so far
  bool failed_ = false;
  std::exception_ptr error_;
};

}  // namespace

void write_rows_in_order(std::ostream& out, std::size_t rows, unsigned threads, const FormatRows& format) {
  threads = std::min(threads, kMaxFormatThreads);
  const std::size_t blocks = block_count(rows);
  if (threads <= 1 || blocks <= 1) {
    std::string text;
    for (std::size_t block = 0; block < blocks; ++block) {
      text.clear();
      format(block * kRowsPerBlock, block_end(rows, block), text);
      write_text(out, text);
    }
    return;
  }
  BlockPipeline pipeline(rows, threads, format);
  std::vector<std::thread> formatters;
  try {
    for (unsigned t = 0; t < std::min<std::size_t>(threads, blocks); ++t) {
      formatters.emplace_back([&pipeline] { pipeline.format_blocks(); });
    }
    pipeline.write_blocks(out);
  } catch (...) {
    pipeline.abandon();
    for (std::thread& formatter : formatters) formatter.join();
    throw;
  }
  for (std::thread& formatter : formatters) formatter.join();
  if (pipeline.error()) std::rethrow_exception(pipeline.error());
}

}  // namespace sharesim
