// verify_first_run and time_interleaved (tools/bench/paths.h) on trials that
// log which path ran when: the order of the rounds, the samples each path
// gets, and what becomes of a path that is wrong or fails.
#include <gtest/gtest.h>

#include <stdexcept>

#include "paths.h"

namespace vkcl::bench {
namespace {

struct Log {
  std::vector<int> runs;  // the path of each run_once, in order
};

class FakeTrial : public Trial {
 public:
  // Run k (0-based) returns `id * 10 + k` ms; run `throw_at` throws.
  FakeTrial(Log& log, int id, int throw_at = -1, std::byte output = std::byte{7})
      : log_(log), id_(id), throw_at_(throw_at), output_(output) {}
  double run_once() override {
    log_.runs.push_back(id_);
    if (count_ == throw_at_) throw std::runtime_error("device lost in run " + std::to_string(count_));
    return id_ * 10.0 + count_++;
  }
  std::vector<std::vector<std::byte>> read_outputs() override { return {{output_}}; }
  std::vector<std::string> notes() const override { return {"path " + std::to_string(id_)}; }

 private:
  Log& log_;
  int id_, throw_at_, count_ = 0;
  std::byte output_;
};

Case expecting_seven() {
  Case c;
  c.verify = [](const std::vector<std::vector<std::byte>>& contents) -> std::string {
    return contents.at(0).at(0) == std::byte{7} ? "" : "output[0] is not 7";
  };
  return c;
}

TEST(VerifyFirstRun, KeepsARightTrialWithItsNotes) {
  Log log;
  const Case c = expecting_seven();
  Prepared p = verify_first_run(c, std::make_unique<FakeTrial>(log, 1));
  EXPECT_TRUE(p.result.ok());
  ASSERT_NE(p.trial, nullptr);
  EXPECT_EQ(p.result.notes, std::vector<std::string>{"path 1"});
  EXPECT_TRUE(p.result.samples.empty());  // the verified run is not timed
  EXPECT_EQ(log.runs, std::vector<int>{1});
}

TEST(VerifyFirstRun, DropsAWrongTrial) {
  Log log;
  const Case c = expecting_seven();
  Prepared p = verify_first_run(c, std::make_unique<FakeTrial>(log, 1, -1, std::byte{8}));
  EXPECT_EQ(p.result.status, "wrong result");
  EXPECT_EQ(p.result.detail, "output[0] is not 7");
  EXPECT_EQ(p.trial, nullptr);
}

TEST(VerifyFirstRun, DropsATrialWhoseRunThrows) {
  Log log;
  const Case c = expecting_seven();
  Prepared p = verify_first_run(c, std::make_unique<FakeTrial>(log, 1, 0));
  EXPECT_EQ(p.result.status, "run error");
  EXPECT_EQ(p.result.detail, "device lost in run 0");
  EXPECT_EQ(p.trial, nullptr);
}

TEST(TimeInterleaved, EachRoundRunsEveryPathOnceStartingOneLater) {
  Log log;
  std::vector<Prepared> prepared;
  for (int id = 0; id < 3; ++id) prepared.push_back({{}, std::make_unique<FakeTrial>(log, id)});
  const std::vector<RunResult> results = time_interleaved(prepared, 4);
  EXPECT_EQ(log.runs, (std::vector<int>{0, 1, 2, 1, 2, 0, 2, 0, 1, 0, 1, 2}));
  ASSERT_EQ(results.size(), 3u);
  for (int id = 0; id < 3; ++id) {
    EXPECT_TRUE(results[id].ok());
    EXPECT_EQ(results[id].samples, (std::vector<double>{id * 10.0, id * 10.0 + 1, id * 10.0 + 2, id * 10.0 + 3}));
  }
}

TEST(TimeInterleaved, APathWithoutATrialKeepsItsStatus) {
  Log log;
  std::vector<Prepared> prepared;
  prepared.push_back({{}, std::make_unique<FakeTrial>(log, 0)});
  prepared.push_back({{"n/a", "the device has no cl_khr_subgroups", {}, {}}, nullptr});
  const std::vector<RunResult> results = time_interleaved(prepared, 2);
  EXPECT_EQ(log.runs, (std::vector<int>{0, 0}));
  EXPECT_EQ(results[0].samples.size(), 2u);
  EXPECT_EQ(results[1].status, "n/a");
  EXPECT_EQ(results[1].detail, "the device has no cl_khr_subgroups");
  EXPECT_TRUE(results[1].samples.empty());
}

TEST(TimeInterleaved, APathThatFailsIsARunErrorAndRunsNoMore) {
  Log log;
  std::vector<Prepared> prepared;
  prepared.push_back({{}, std::make_unique<FakeTrial>(log, 0)});
  prepared.push_back({{}, std::make_unique<FakeTrial>(log, 1, 1)});  // its second run throws
  const std::vector<RunResult> results = time_interleaved(prepared, 4);
  EXPECT_EQ(log.runs, (std::vector<int>{0, 1, 1, 0, 0, 0}));
  EXPECT_EQ(results[0].samples.size(), 4u);
  EXPECT_EQ(results[1].status, "run error");
  EXPECT_EQ(results[1].detail, "device lost in run 1");
  EXPECT_TRUE(results[1].samples.empty());  // no median from a path that failed
  EXPECT_EQ(prepared[1].trial, nullptr);
}

}  // namespace
}  // namespace vkcl::bench
