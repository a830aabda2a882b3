// kube-scheduler's DefaultPreemption as sim/sched/preemption.h implements it: which pods of a
// node are victims (the reprieve order) and which candidate node is chosen (the criteria of
// pickOneNodeForPreemption, one test each). Expected values worked out by hand from
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go and
// pkg/scheduler/framework/preemption/preemption.go.
#include "sim/sched/preemption.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

namespace sharesim {
namespace {

// A node of `capacity` GPUs and the GPUs each running job holds; the pending pod needs `needed`.
class GpuCountTrial final : public NodeTrial {
 public:
  GpuCountTrial(std::int64_t capacity, std::int64_t needed, std::map<std::uint32_t, std::int64_t> held)
      : capacity_(capacity), needed_(needed), held_(std::move(held)) {
    for (const auto& [job, gpus] : held_) used_ += gpus;
  }
  void take_off(const PreemptionVictim& v) override {
    used_ -= held_.at(v.job);
    off_.push_back(v.job);
  }
  void give_back(const PreemptionVictim& v) override {
    used_ += held_.at(v.job);
    off_.erase(std::find(off_.begin(), off_.end(), v.job));
  }
  bool pod_fits() override { return capacity_ - used_ >= needed_; }
  const std::vector<std::uint32_t>& off() const { return off_; }

 private:
  std::int64_t capacity_, needed_, used_ = 0;
  std::map<std::uint32_t, std::int64_t> held_;
  std::vector<std::uint32_t> off_;
};

std::vector<std::uint32_t> jobs_of(const std::vector<PreemptionVictim>& victims) {
  std::vector<std::uint32_t> jobs;
  for (const PreemptionVictim& v : victims) jobs.push_back(v.job);
  return jobs;
}

TEST(Preemption, MoreImportantIsHigherPriorityThenEarlierStart) {
  const PreemptionVictim old_low{1, 1, 10}, new_high{2, 5, 50}, old_high{3, 5, 20};
  EXPECT_TRUE(more_important(new_high, old_low));
  EXPECT_TRUE(more_important(old_high, new_high));  // equal priority: the one that started first
  EXPECT_FALSE(more_important(new_high, old_high));
}

TEST(Preemption, ReprievesTheMostImportantFirst) {
  // 4 GPUs, full: a (priority 1), b and c (priority 2; c started first), d (priority 9). A pod
  // of priority 5 needs 2 GPUs. All of a, b, c off: 3 free, it fits. Given back in importance
  // order: c stays (2 free), b must go (1 free), a must go. d is never a candidate.
  const std::vector<PreemptionVictim> on_node{{10, 1, 10}, {11, 2, 5}, {12, 2, 1}, {13, 9, 0}};
  GpuCountTrial trial(4, 2, {{10, 1}, {11, 1}, {12, 1}, {13, 1}});
  const VictimSelection selection = select_victims_on_node(5, on_node, trial);
  ASSERT_EQ(selection.result, VictimSearch::kFits);
  EXPECT_EQ(jobs_of(selection.victims), (std::vector<std::uint32_t>{11, 10}));  // most important first
  EXPECT_EQ(trial.off(), (std::vector<std::uint32_t>{11, 10}));                 // the trial is left so
}

TEST(Preemption, AReprievedPodStaysWhenALaterOneMakesRoom) {
  // Reprieve keeps the first pod that fits back, even when evicting it alone would have done:
  // a (priority 3, 2 GPUs) is given back first and stays; b and c (priority 1, 1 GPU each) go.
  const std::vector<PreemptionVictim> on_node{{1, 3, 0}, {2, 1, 0}, {3, 1, 0}};
  GpuCountTrial trial(4, 2, {{1, 2}, {2, 1}, {3, 1}});
  const VictimSelection selection = select_victims_on_node(5, on_node, trial);
  ASSERT_EQ(selection.result, VictimSearch::kFits);
  EXPECT_EQ(jobs_of(selection.victims), (std::vector<std::uint32_t>{2, 3}));
}

TEST(Preemption, NoVictimsOfLowerPriorityAndNoFitWithoutThem) {
  GpuCountTrial equal(4, 2, {{1, 4}});
  EXPECT_EQ(select_victims_on_node(5, std::vector<PreemptionVictim>{{1, 5, 0}}, equal).result,
            VictimSearch::kNoVictims);  // equal priority is never preempted
  GpuCountTrial too_small(4, 3, {{1, 2}, {2, 2}});
  const VictimSelection selection =
      select_victims_on_node(5, std::vector<PreemptionVictim>{{1, 1, 0}, {2, 9, 0}}, too_small);
  EXPECT_EQ(selection.result, VictimSearch::kDoesNotFit);  // only 2 GPUs can be freed
  EXPECT_TRUE(selection.victims.empty());
}

TEST(Preemption, PicksTheNodeWhoseMostImportantVictimIsLeastImportant) {
  const std::vector<PreemptionCandidate> candidates{{0, {{1, 5, 0}}}, {1, {{2, 3, 0}, {3, 3, 0}}}};
  EXPECT_EQ(pick_one_node_for_preemption(candidates), 1u);
}

TEST(Preemption, ThenTheSmallestSumOfPriorities) {
  const std::vector<PreemptionCandidate> candidates{{0, {{1, 3, 0}, {2, 2, 0}}}, {1, {{3, 3, 0}, {4, 1, 0}}}};
  EXPECT_EQ(pick_one_node_for_preemption(candidates), 1u);
}

TEST(Preemption, SumsShiftNegativePrioritiesSoFewerVictimsWin) {
  // Raw sums -10 < -5 would prefer two victims; with each priority shifted by 2^31 one victim
  // is the smaller sum (kube-scheduler's minSumPrioritiesScoreFunc).
  const std::vector<PreemptionCandidate> candidates{{0, {{1, -5, 0}, {2, -5, 0}}}, {1, {{3, -5, 0}}}};
  EXPECT_EQ(pick_one_node_for_preemption(candidates), 1u);
}

TEST(Preemption, ThenTheLatestStartOfTheHighestPriorityVictims) {
  // Equal priorities, sums and counts: node 0's highest-priority victims started at 50 and 100,
  // node 1's at 80 and 90; the earliest of each is 50 and 80: node 1 loses the least work.
  const std::vector<PreemptionCandidate> candidates{{0, {{1, 3, 100}, {2, 3, 50}}}, {1, {{3, 3, 80}, {4, 3, 90}}}};
  EXPECT_EQ(pick_one_node_for_preemption(candidates), 1u);
  // Only the highest priority counts: node 0's low victim started long ago.
  const std::vector<PreemptionCandidate> mixed{{0, {{1, 4, 70}, {2, 2, 0}}}, {1, {{3, 4, 60}, {4, 2, 500}}}};
  EXPECT_EQ(pick_one_node_for_preemption(mixed), 0u);
}

TEST(Preemption, ThenTheFirstNode) {
  const std::vector<PreemptionCandidate> candidates{{4, {{1, 3, 10}}}, {7, {{2, 3, 10}}}, {9, {{3, 3, 10}}}};
  EXPECT_EQ(pick_one_node_for_preemption(candidates), 0u);
}

}  // namespace
}  // namespace sharesim
