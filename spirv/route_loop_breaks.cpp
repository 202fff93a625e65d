// route_loop_breaks: lets a loop's early exits leave the loop where they are
// taken, as breaks to the loop's merge block.
//
// LLVM's structurizecfg, which clc runs before translation, gives every loop
// one exit, at its latch: an exit taken in the body sets a flag that flows
// through a block of phis to the latch, which branches on it. NVIDIA's Vulkan
// compiler runs such a loop much slower than the same loop whose exit
// branches straight to the merge block, as glslang emits a `break`:
// algo_mandelbrot_fixed took 3.24 ms one way and 2.45 ms the other on the
// H100 (docs/performance.md, "Twins of the kernels below 0.8x").
//
// This pass takes the flag out where it is a constant. For a latch L ending in
//   OpBranchConditional %flag %M %H   (or %H %M: then the constant is false)
// where %flag is a phi of L whose value from a predecessor P is the constant
// that leaves, the edge P -> L becomes P -> M:
//   - L's phis lose their values from P;
//   - M's phis get, from P, what their value from L would have been on that
//     edge (a phi of L: its value from P; another instruction of L: a copy of
//     it computed at the end of P);
//   - every other use after the loop of a value L defines gets a new phi in M
//     with the same two sources.
// L may hold nothing but phis and pure instructions (arithmetic, comparisons,
// selects, conversions, composites), which may be computed on P's edge
// instead; a latch with anything else (a load, a barrier, a call) keeps its
// loop as it is. So does a loop where the change would leave a value used
// after the loop without a definition that dominates the use.
//
// Expects the CFG that structurizecfg leaves (structurize_control_flow's
// header says which); runs right before structurize_control_flow, which
// places the loop and selection merges around the breaks.
#include <algorithm>
#include <optional>
#include <unordered_map>

#include "control_flow_graph.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

std::optional<bool> bool_constant(const Module& m, uint32_t id) {
  const Instruction* g = m.find_global(id);
  if (g && g->opcode == Op::OpConstantTrue) return true;
  if (g && g->opcode == Op::OpConstantFalse) return false;
  return std::nullopt;
}

class LoopBreakRouter {
 public:
  LoopBreakRouter(Module& m, Cfg& cfg, const Cfg::Loop& loop) : m_(m), cfg_(cfg), loop_(loop) {}

  // Changes the CFG and returns true, or leaves it as it was.
  bool run() {
    if (!find_exits()) return false;
    const std::vector<Block> before = cfg_.blocks;
    const uint32_t bound = m_.bound;
    route();
    cfg_.analyze();
    if (uses_after_loop_are_dominated()) return true;
    cfg_.blocks = before;
    m_.bound = bound;
    cfg_.analyze();
    return false;
  }

 private:
  Block& latch() { return cfg_.blocks[loop_.latch]; }

  // The latch's exit, its flag, and the predecessors whose flag is the constant that leaves.
  bool find_exits() {
    if (loop_.latch == loop_.header) return false;
    const Instruction& branch = latch().terminator();
    if (branch.opcode != Op::OpBranchConditional) return false;
    const uint32_t header = cfg_.blocks[loop_.header].label;
    bool leave_on;
    if (branch.word(2) == header && branch.word(1) != header) leave_on = true, merge_ = branch.word(1);
    else if (branch.word(1) == header && branch.word(2) != header) leave_on = false, merge_ = branch.word(2);
    else return false;
    if (loop_.body[cfg_.index.at(merge_)]) return false;
    const Instruction* flag = nullptr;
    for (size_t i = 0; i + 1 < latch().body.size(); ++i) {
      const Instruction& instruction = latch().body[i];
      if (instruction.opcode == Op::OpPhi) {
        if (instruction.result_id == branch.word(0)) flag = &instruction;
      } else if (!is_pure_operation(instruction.opcode)) {
        return false;
      }
      defined_in_latch_[instruction.result_id] = i;
    }
    if (!flag) return false;
    size_t staying = 0;
    for (size_t w = 0; w + 1 < flag->words.size(); w += 2) {
      const size_t parent = cfg_.index.at(flag->words[w + 1]);
      // (A predecessor that can reach the merge block already would then reach it twice.)
      const bool reaches_merge = std::ranges::count(cfg_.blocks[parent].successors(), merge_) != 0;
      if (bool_constant(m_, flag->words[w]) == leave_on && parent != loop_.latch && loop_.body[parent] && !reaches_merge)
        exits_.push_back(flag->words[w + 1]);
      else
        ++staying;
    }
    // With no edge left that stays, the loop would no longer loop: nothing to gain.
    return !exits_.empty() && staying > 0;
  }

  // What the latch-defined `id` would be on the edge from `exit` (for ids
  // the latch does not define: `id`); copies of the latch's pure
  // instructions go into `copies`, in order, for the end of `exit`.
  uint32_t value_on_edge(uint32_t exit, uint32_t id, std::unordered_map<uint32_t, uint32_t>& copied,
                         std::vector<Instruction>& copies) {
    const auto defined = defined_in_latch_.find(id);
    if (defined == defined_in_latch_.end()) return id;
    const Instruction& instruction = latch().body[defined->second];
    if (instruction.opcode == Op::OpPhi) {
      for (size_t w = 0; w + 1 < instruction.words.size(); w += 2)
        if (instruction.words[w + 1] == exit) return instruction.words[w];
      return id;  // not reached: every predecessor has a value
    }
    if (auto found = copied.find(id); found != copied.end()) return found->second;
    Instruction copy = instruction;
    copy.result_id = m_.new_id();
    for (size_t w = 0; w < copy.words.size(); ++w)
      if (copy.is_id[w]) copy.words[w] = value_on_edge(exit, copy.words[w], copied, copies);
    copied[id] = copy.result_id;
    copies.push_back(copy);
    return copy.result_id;
  }

  void route() {
    const uint32_t latch_label = latch().label;
    // Each exit's copies, and its values of the latch's definitions.
    std::unordered_map<uint32_t, std::unordered_map<uint32_t, uint32_t>> copied;
    std::unordered_map<uint32_t, std::vector<Instruction>> copies;
    auto on_edge = [&](uint32_t exit, uint32_t id) { return value_on_edge(exit, id, copied[exit], copies[exit]); };

    Block& merge = cfg_.blocks[cfg_.index.at(merge_)];
    std::vector<Instruction> new_phis;
    std::unordered_map<uint32_t, uint32_t> merged;  // latch-defined id -> its phi in the merge block
    auto merged_phi = [&](uint32_t id) {
      if (auto found = merged.find(id); found != merged.end()) return found->second;
      const Instruction& definition = latch().body[defined_in_latch_.at(id)];
      Instruction phi(Op::OpPhi, definition.type_id, m_.new_id());
      phi.id(id).id(latch_label);
      for (uint32_t exit : exits_) phi.id(on_edge(exit, id)).id(exit);
      new_phis.push_back(phi);
      return merged[id] = phi.result_id;
    };
    for (size_t b = 0; b < cfg_.blocks.size(); ++b) {
      if (loop_.body[b]) continue;
      for (Instruction& instruction : cfg_.blocks[b].body) {
        if (&cfg_.blocks[b] == &merge && instruction.opcode == Op::OpPhi) {
          // The merge block's own phis: a value from each exit, as from the latch.
          std::vector<uint32_t> added;
          for (size_t w = 0; w + 1 < instruction.words.size(); w += 2)
            if (instruction.words[w + 1] == latch_label)
              for (uint32_t exit : exits_) added.insert(added.end(), {on_edge(exit, instruction.words[w]), exit});
          for (uint32_t word : added) instruction.id(word);
          continue;
        }
        instruction.for_each_used_id([&](uint32_t& id) {
          if (defined_in_latch_.contains(id)) id = merged_phi(id);
        });
      }
    }
    merge.body.insert(merge.body.begin(), new_phis.begin(), new_phis.end());

    // The latch's phis forget the exits; each exit branches to the merge block, after its copies.
    for (Instruction& instruction : latch().body) {
      if (instruction.opcode != Op::OpPhi) break;
      std::vector<uint32_t> kept;
      std::vector<bool> kept_is_id;
      for (size_t w = 0; w + 1 < instruction.words.size(); w += 2)
        if (std::ranges::count(exits_, instruction.words[w + 1]) == 0) {
          kept.insert(kept.end(), {instruction.words[w], instruction.words[w + 1]});
          kept_is_id.insert(kept_is_id.end(), {true, true});
        }
      instruction.words = std::move(kept);
      instruction.is_id = std::move(kept_is_id);
    }
    for (uint32_t exit : exits_) {
      Block& block = cfg_.blocks[cfg_.index.at(exit)];
      std::vector<Instruction>& exit_copies = copies[exit];
      block.body.insert(block.body.end() - 1, exit_copies.begin(), exit_copies.end());
      Instruction& branch = block.terminator();
      for (size_t w = branch.opcode == Op::OpBranchConditional ? 1 : 0; w < branch.words.size() && w < 3; ++w)
        if (branch.words[w] == latch_label) branch.words[w] = merge_;
    }
  }

  // Every use outside the loop of a value defined inside it is dominated by
  // its definition (phis: by the end of the parent block).
  bool uses_after_loop_are_dominated() {
    std::unordered_map<uint32_t, size_t> defined_in;  // loop-defined id -> block
    for (size_t b = 0; b < cfg_.blocks.size(); ++b)
      if (loop_.body[b])
        for (const Instruction& instruction : cfg_.blocks[b].body)
          if (instruction.result_id) defined_in[instruction.result_id] = b;
    for (size_t b = 0; b < cfg_.blocks.size(); ++b) {
      if (loop_.body[b]) continue;
      for (Instruction& instruction : cfg_.blocks[b].body) {
        if (instruction.opcode == Op::OpPhi) {
          for (size_t w = 0; w + 1 < instruction.words.size(); w += 2) {
            const auto d = defined_in.find(instruction.words[w]);
            if (d != defined_in.end() && !cfg_.dominates(d->second, cfg_.index.at(instruction.words[w + 1]))) return false;
          }
          continue;
        }
        bool dominated = true;
        instruction.for_each_used_id([&](uint32_t& id) {
          const auto d = defined_in.find(id);
          if (d != defined_in.end() && !cfg_.dominates(d->second, b)) dominated = false;
        });
        if (!dominated) return false;
      }
    }
    return true;
  }

  Module& m_;
  Cfg& cfg_;
  const Cfg::Loop& loop_;
  uint32_t merge_ = 0;
  std::vector<uint32_t> exits_;                           // labels of the predecessors that leave
  std::unordered_map<uint32_t, size_t> defined_in_latch_;  // id -> index in the latch's body
};

class RouteLoopBreaks final : public Pass {
 public:
  std::string_view name() const override { return "route_loop_breaks"; }

  void run(Module& m, LoweringContext&) override {
    // Each change takes at least one constant out of a latch's phi, so this ends.
    for (Function& f : m.functions)
      rewrite_loops_one_at_a_time(f, [&](Cfg& cfg, const Cfg::Loop& loop) { return LoopBreakRouter(m, cfg, loop).run(); });
  }
};

}  // namespace

std::unique_ptr<Pass> make_route_loop_breaks() { return std::make_unique<RouteLoopBreaks>(); }

}  // namespace vkcl::spirv
