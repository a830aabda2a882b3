// Priority preemption in the runtime: the dry run of kube-scheduler's DefaultPreemption on the
// cluster as it stands (sim/sched/preemption.h has the algorithm), the eviction of the chosen
// victims, and the pending reason's "preemption: ..." part.
//
// An eviction is a kill with cause "preempted" (ClusterRuntime::kill): the victim's `restart`
// decides what follows, as for any other kill. With OnFailure it goes back to the pending queue
// after its backoff, keeping its last checkpoint, and the eviction counts against max_restarts,
// as a Kubernetes Job counts a preempted pod's failure against backoffLimit; with Never (the
// default) it ends failed, as a bare Pod that is deleted. The preemptor is then placed at once
// on the node it made room on: the victims' graceful termination and the later scheduling
// cycle on the nominated node take no simulated time.
#include <algorithm>
#include <map>

#include "sim/runtime/cluster_runtime.h"

namespace sharesim {
namespace {

// The dry run on one node: victims are taken off (their resources and their residents on the
// node's GPUs) and given back; the destructor restores the node exactly as it was.
class RunningPodsTrial final : public NodeTrial {
 public:
  RunningPodsTrial(Cluster& cluster, Scheduler& scheduler, const ShapeTable& shapes, const std::vector<JobRecord>& jobs,
                   const std::vector<PodPlacement>& pods, const std::vector<DeviceAllocation>& devices,
                   std::uint32_t node, const PodShape& pending)
      : cluster_(cluster),
        scheduler_(scheduler),
        shapes_(shapes),
        jobs_(jobs),
        pods_(pods),
        devices_(devices),
        node_(cluster.node(node)),
        pending_(pending) {
    for (std::uint32_t g = node_.first_gpu; g < node_.first_gpu + node_.gpu_count; ++g)
      residents_.push_back(cluster_.gpu(g).residents);
  }
  ~RunningPodsTrial() override {
    for (std::uint32_t job : off_) account(job, true);
    for (std::uint32_t local = 0; local < node_.gpu_count; ++local)
      cluster_.gpu(node_.first_gpu + local).residents = residents_[local];
  }
  RunningPodsTrial(const RunningPodsTrial&) = delete;
  RunningPodsTrial& operator=(const RunningPodsTrial&) = delete;

  void take_off(const PreemptionVictim& victim) override {
    account(victim.job, false);
    off_.push_back(victim.job);
    refresh_residents();
  }
  void give_back(const PreemptionVictim& victim) override {
    account(victim.job, true);
    off_.erase(std::find(off_.begin(), off_.end(), victim.job));
    refresh_residents();
  }
  bool pod_fits() override { return scheduler_.fits_on_node(pending_, node_.index); }

 private:
  // The job's pods on this node, taken off (`on` false) or put back.
  // Units only, without telling the placement plugin: the trial restores exactly what it took,
  // and the residents are restored verbatim (refresh_residents, the destructor).
  void account(std::uint32_t job, bool on) {
    const JobRecord& rec = jobs_[job];
    const PodClaim claim = claim_of(shapes_.shapes[rec.spec.shape]);
    for (std::uint32_t p = rec.first_pod; p < rec.first_pod + rec.pod_count; ++p) {
      if (pods_[p].node != node_.index) continue;
      if (on) {
        cluster_.allocate_pod_units(claim, pods_[p], devices_);
      } else {
        cluster_.release_pod_units(claim, pods_[p], devices_);
      }
    }
  }
  // The node's GPUs hold the residents they had, less the jobs taken off, in their order.
  void refresh_residents() {
    for (std::uint32_t local = 0; local < node_.gpu_count; ++local) {
      ResidentList& now = cluster_.gpu(node_.first_gpu + local).residents;
      now.clear();
      for (const Resident& r : residents_[local]) {
        if (std::find(off_.begin(), off_.end(), r.task) == off_.end()) now.push_back(r);
      }
    }
  }

  Cluster& cluster_;
  Scheduler& scheduler_;
  const ShapeTable& shapes_;
  const std::vector<JobRecord>& jobs_;
  const std::vector<PodPlacement>& pods_;
  const std::vector<DeviceAllocation>& devices_;
  const Node& node_;
  const PodShape& pending_;
  std::vector<ResidentList> residents_;  // as they were, per GPU of the node
  std::vector<std::uint32_t> off_;       // jobs taken off now
};

}  // namespace

void ClusterRuntime::victims_on_node(std::uint32_t node, std::vector<PreemptionVictim>& out) const {
  out.clear();
  for (std::uint32_t job : jobs_on_node_[node]) {
    const JobRecord& rec = jobs_[job];
    const auto restarted = run_start_.find(job);
    out.push_back({job, rec.spec.priority, restarted != run_start_.end() ? restarted->second : rec.start});
  }
}

// The cluster and scheduler are held by reference, so this const method can run the dry run;
// every trial restores the node it changed before the next begins.
ClusterRuntime::PreemptionPlan ClusterRuntime::plan_preemption(const JobSpec& spec) const {
  PreemptionPlan plan;
  // PodEligibleToPreemptOthers. Gangs do not preempt: kube-scheduler's DefaultPreemption works
  // pod by pod and knows no gangs.
  if (!spec.preempts) {
    plan.failure = std::string("preemption: ") + kPreemptionPolicyNever;
    return plan;
  }
  if (spec.pods != 1) {
    // Said in the pending reason, or a gang of high priority would seem to be refused victims.
    plan.failure = "preemption: not tried: a gang of " + std::to_string(spec.pods) +
                   " pods does not preempt (DefaultPreemption works pod by pod).";
    return plan;
  }
  const PodShape& shape = shapes_.shapes[spec.shape];
  std::map<std::string, std::size_t> histogram;  // the nodes' reasons, as FitError counts them
  std::vector<PreemptionCandidate> candidates;
  std::vector<PreemptionVictim> on_node;
  std::vector<std::string> reasons;
  for (const Node& node : cluster_.nodes()) {
    // Only nodes that failed a filter preemption can resolve are tried (findCandidates); a
    // node the pod fits already needs no preemption either.
    if (!scheduler_.preemption_might_help(shape, node) || scheduler_.fits_on_node(shape, node.index)) {
      ++histogram[kPreemptionNotHelpful];
      continue;
    }
    victims_on_node(node.index, on_node);
    RunningPodsTrial trial(cluster_, scheduler_, shapes_, jobs_, pods_, devices_, node.index, shape);
    VictimSelection selection = select_victims_on_node(spec.priority, on_node, trial);
    switch (selection.result) {
      case VictimSearch::kNoVictims:
        ++histogram[kNoPreemptionVictims];
        break;
      case VictimSearch::kDoesNotFit:
        // The filters' reasons with every lower-priority pod taken off.
        reasons.clear();
        scheduler_.unschedulable_reasons(shape, node, reasons);
        for (const std::string& reason : reasons) ++histogram[reason];
        break;
      case VictimSearch::kFits:
        candidates.push_back({node.index, std::move(selection.victims)});
        break;
    }
  }
  if (!candidates.empty()) {
    plan.chosen = std::move(candidates[pick_one_node_for_preemption(candidates)]);
    return plan;
  }
  // FitError.Error(): "0/N nodes are available: " and the sorted "<count> <reason>" list.
  std::vector<std::string> counted;
  for (const auto& [reason, count] : histogram) counted.push_back(std::to_string(count) + " " + reason);
  std::sort(counted.begin(), counted.end());
  plan.failure = "preemption: 0/" + std::to_string(cluster_.nodes().size()) + " nodes are available: ";
  for (std::size_t i = 0; i < counted.size(); ++i) plan.failure += (i ? ", " : "") + counted[i];
  plan.failure += ".";
  return plan;
}

bool ClusterRuntime::try_preempt(std::uint32_t job) {
  PreemptionPlan plan = plan_preemption(jobs_[job].spec);
  if (!plan.chosen) return false;
  const std::string& node = cluster_.node(plan.chosen->node).name;
  // The victims' event text (preemption.go): "Preempted by pod <uid> on node <node>".
  const std::string reason = "preempted by pod " + job_name(jobs_[job]) + " on node " + node;
  std::string victims;
  for (const PreemptionVictim& victim : plan.chosen->victims) {
    victims += (victims.empty() ? "" : " ") + job_name(jobs_[victim.job]);
    if (jobs_[victim.job].state == JobState::Running) kill(victim.job, reason, KillCause::Preempted, false);
  }
  ++counters_.preemptions;
  log("preempt", job, node + ": " + victims);
  return try_start(job, plan.chosen->node);
}

std::string ClusterRuntime::explain_pending(const JobSpec& job) const {
  std::string text = scheduler_.explain_unschedulable(job);
  if (!preemption_) return text;
  const PreemptionPlan plan = plan_preemption(job);
  return plan.failure.empty() ? text : text + " " + plan.failure;
}

}  // namespace sharesim
