// FluidProgress (sim/runtime/fluid_progress.h): a job's remaining work and its one completion
// event, moved only when its rate changes.
#include <gtest/gtest.h>

#include <vector>

#include "sim/runtime/fluid_progress.h"

namespace sharesim {
namespace {

struct RecordingHandler : EventHandler {
  explicit RecordingHandler(const Simulator& simulator) : sim(simulator) {}
  const Simulator& sim;
  std::vector<std::pair<SimTime, std::uint32_t>> fired;
  void on_event(std::uint32_t job) override { fired.emplace_back(sim.now(), job); }
};

// A running job with `work` ns of standalone work left, its completions recorded.
struct FluidJob {
  explicit FluidJob(double work) {
    rec.state = JobState::Running;
    rec.remaining_work = work;
  }
  Simulator sim;
  RecordingHandler done{sim};
  FluidProgress fluid{sim, done};
  JobRecord rec;
};

TEST(FluidProgress, CompletionFollowsTheRateAndOnlyMovesWhenItChanges) {
  FluidJob job(10.0 * kSecond);
  auto& [sim, done, fluid, rec] = job;

  fluid.set_rate(7, rec, 0.5);  // 10 s of work at half speed: done at 20 s
  ASSERT_TRUE(rec.completion.valid());
  const EventId first = rec.completion;
  fluid.set_rate(7, rec, 0.5);  // the same rate: the event stays
  EXPECT_EQ(rec.completion.slot, first.slot);
  EXPECT_EQ(rec.completion.generation, first.generation);

  sim.run(4 * kSecond);  // 2 s of work done
  fluid.set_rate(7, rec, 1.0);  // 8 s left at full speed: done at 12 s
  EXPECT_EQ(rec.remaining_work, 8.0 * kSecond);
  EXPECT_EQ(rec.last_update, 4 * kSecond);

  sim.run(6 * kSecond);
  fluid.set_rate(7, rec, 0.0);  // stalled: no completion at all
  EXPECT_FALSE(rec.completion.valid());
  EXPECT_EQ(rec.remaining_work, 6.0 * kSecond);

  sim.run(8 * kSecond);
  fluid.set_rate(7, rec, 2.0);  // 6 s of work at twice the speed: done at 11 s
  EXPECT_EQ(rec.remaining_work, 6.0 * kSecond);
  sim.run();
  ASSERT_EQ(done.fired.size(), 1u);
  EXPECT_EQ(done.fired[0], std::make_pair(SimTime{11 * kSecond}, std::uint32_t{7}));
}

TEST(FluidProgress, DroppedCompletionIsPlacedAgainAtAnUnchangedRate) {
  FluidJob job(3.0 * kSecond);
  auto& [sim, done, fluid, rec] = job;
  fluid.set_rate(1, rec, 1.0);
  rec.remaining_work = 5.0 * kSecond;  // new work, as a behaviour step gives
  fluid.drop_completion(rec);
  fluid.set_rate(1, rec, 1.0);
  sim.run();
  ASSERT_EQ(done.fired.size(), 1u);
  EXPECT_EQ(done.fired[0].first, 5 * kSecond);
}

}  // namespace
}  // namespace sharesim
