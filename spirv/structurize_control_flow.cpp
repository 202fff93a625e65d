// structurize_control_flow: adds the merge instructions Shader modules need.
//
// Expects the CFG that LLVM's structurizecfg leaves (clc runs lowerswitch,
// mergereturn, fix-irreducible, unify-loop-exits and structurizecfg before
// translation, then tools/clc/rejoin_if_else, which merges its serialized
// if/else pairs back into diamonds): reducible, one return, every loop a
// do-while whose latch is its only back edge and only exit. On that shape
// the constructs follow from the dominator trees:
//   loop header H, latch L, exit M:  OpLoopMerge M L' in H, where L' is the
//     latch split after its phis, so that selections in the body can merge at
//     L (a continue target cannot be a selection merge); when H itself
//     branches, it is split too, so that it holds only the loop merge.
//   any other conditional branch in B:  OpSelectionMerge ipdom(B).
// Anything else (a loop with two back edges or exits, a branch with no
// post-dominator) is reported as an internal error rather than emitted.
#include <algorithm>
#include <unordered_map>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

struct Block {
  uint32_t label = 0;
  std::vector<Instruction> body;  // after the label, terminator last

  Instruction& terminator() { return body.back(); }
  std::vector<uint32_t> successors() const {
    const Instruction& t = body.back();
    if (t.opcode == Op::OpBranch) return {t.word(0)};
    if (t.opcode == Op::OpBranchConditional) return {t.word(1), t.word(2)};
    if (t.opcode == Op::OpSwitch) throw CompileError("internal error: OpSwitch survived lowerswitch");
    return {};
  }
};

struct Cfg {
  std::vector<Block> blocks;
  std::unordered_map<uint32_t, size_t> index;
  std::vector<std::vector<size_t>> succ, pred;
  std::vector<size_t> idom, ipdom;  // ipdom: blocks.size() is the virtual exit
  std::vector<size_t> reverse_post_order;  // reachable blocks only
  static constexpr size_t kNone = SIZE_MAX;

  void analyze() {
    size_t n = blocks.size();
    index.clear();
    for (size_t i = 0; i < n; ++i) index[blocks[i].label] = i;
    succ.assign(n, {});
    pred.assign(n + 1, {});
    for (size_t i = 0; i < n; ++i)
      for (uint32_t s : blocks[i].successors()) {
        succ[i].push_back(index.at(s));
        pred[index.at(s)].push_back(i);
      }
    idom = dominators(n, 0, [&](size_t b) { return succ[b]; }, [&](size_t b) { return pred[b]; }, &reverse_post_order);
    // Post-dominators: dominators of the reverse graph from a virtual exit.
    std::vector<std::vector<size_t>> rsucc(n + 1), rpred(n + 1);
    for (size_t i = 0; i < n; ++i) {
      if (succ[i].empty()) {
        rsucc[n].push_back(i);
        rpred[i].push_back(n);
      }
      for (size_t s : succ[i]) {
        rsucc[s].push_back(i);
        rpred[i].push_back(s);
      }
    }
    ipdom = dominators(n + 1, n, [&](size_t b) { return rsucc[b]; }, [&](size_t b) { return rpred[b]; }, nullptr);
  }

  bool dominates(size_t a, size_t b) const {
    for (size_t x = b; x != kNone; x = x == idom[x] ? kNone : idom[x])
      if (x == a) return true;
    return false;
  }

  // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
  template <typename Succ, typename Pred>
  static std::vector<size_t> dominators(size_t n, size_t entry, Succ successors, Pred predecessors,
                                        std::vector<size_t>* reverse_post_order) {
    std::vector<size_t> order, rpo_number(n, kNone);
    std::vector<bool> seen(n, false);
    std::vector<std::pair<size_t, size_t>> stack{{entry, 0}};
    seen[entry] = true;
    while (!stack.empty()) {
      auto& [b, next] = stack.back();
      auto s = successors(b);
      if (next < s.size()) {
        size_t c = s[next++];
        if (!seen[c]) {
          seen[c] = true;
          stack.push_back({c, 0});
        }
      } else {
        order.push_back(b);
        stack.pop_back();
      }
    }
    std::reverse(order.begin(), order.end());
    for (size_t i = 0; i < order.size(); ++i) rpo_number[order[i]] = i;
    if (reverse_post_order) *reverse_post_order = order;
    std::vector<size_t> idom(n, kNone);
    idom[entry] = entry;
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t b : order) {
        if (b == entry) continue;
        size_t new_idom = kNone;
        for (size_t p : predecessors(b)) {
          if (idom[p] == kNone) continue;
          if (new_idom == kNone) {
            new_idom = p;
            continue;
          }
          size_t x = p, y = new_idom;
          while (x != y) {
            while (rpo_number[x] > rpo_number[y]) x = idom[x];
            while (rpo_number[y] > rpo_number[x]) y = idom[y];
          }
          new_idom = x;
        }
        if (new_idom != idom[b]) {
          idom[b] = new_idom;
          changed = true;
        }
      }
    }
    return idom;
  }
};

void rename_phi_parent(Block& block, uint32_t from, uint32_t to) {
  for (Instruction& i : block.body) {
    if (i.opcode != Op::OpPhi) break;
    for (size_t w = 1; w < i.words.size(); w += 2)
      if (i.words[w] == from) i.words[w] = to;
  }
}

// Splits `blocks[b]` after its phis: the first half keeps the label and the
// phis and branches to a new block holding the rest. Returns the new label.
uint32_t split_after_phis(Module& m, std::vector<Block>& blocks, size_t b) {
  Block tail;
  tail.label = m.new_id();
  auto first_non_phi = std::find_if(blocks[b].body.begin(), blocks[b].body.end(),
                                    [](const Instruction& i) { return i.opcode != Op::OpPhi; });
  tail.body.assign(std::make_move_iterator(first_non_phi), std::make_move_iterator(blocks[b].body.end()));
  blocks[b].body.erase(first_non_phi, blocks[b].body.end());
  blocks[b].body.push_back(std::move(Instruction(Op::OpBranch, 0, 0).id(tail.label)));
  uint32_t head_label = blocks[b].label;
  for (uint32_t s : tail.successors())
    for (Block& candidate : blocks)
      if (candidate.label == s) rename_phi_parent(candidate, head_label, tail.label);
  blocks.insert(blocks.begin() + ptrdiff_t(b) + 1, std::move(tail));
  return blocks[b + 1].label;
}

class StructurizeControlFlow final : public Pass {
 public:
  std::string_view name() const override { return "structurize_control_flow"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) structurize(m, f);
  }

 private:
  static void structurize(Module& m, Function& f) {
    std::vector<Instruction> prologue, epilogue;
    Cfg cfg;
    for (Instruction& i : f.code) {
      if (i.opcode == Op::OpLabel) {
        cfg.blocks.push_back({i.result_id, {}});
      } else if (i.opcode == Op::OpFunctionEnd) {
        epilogue.push_back(std::move(i));
      } else if (cfg.blocks.empty()) {
        prologue.push_back(std::move(i));
      } else {
        cfg.blocks.back().body.push_back(std::move(i));
      }
    }
    for (Block& b : cfg.blocks) {  // a conditional branch to one target is a branch
      Instruction& t = b.terminator();
      if (t.opcode == Op::OpBranchConditional && t.word(1) == t.word(2))
        t = std::move(Instruction(Op::OpBranch, 0, 0).id(t.word(1)));
    }

    std::vector<uint32_t> continue_targets = add_loop_merges(m, cfg);
    cfg.analyze();
    for (size_t b = 0; b < cfg.blocks.size(); ++b) {
      Block& block = cfg.blocks[b];
      if (block.terminator().opcode != Op::OpBranchConditional) continue;
      if (block.body.size() >= 2 && block.body[block.body.size() - 2].opcode == Op::OpLoopMerge) continue;
      if (std::ranges::count(continue_targets, block.label)) continue;  // the back-edge branch
      size_t merge = cfg.ipdom[b];
      if (merge == Cfg::kNone || merge >= cfg.blocks.size())
        throw CompileError("internal error: a branch without a merge point survived structurization");
      block.body.insert(block.body.end() - 1, std::move(Instruction(Op::OpSelectionMerge, 0, 0)
                                                            .id(cfg.blocks[merge].label)
                                                            .literal(uint32_t(spv::SelectionControlMask::MaskNone))));
    }

    // Dominators must come first in the binary (SPIR-V 2.16.1); unreachable blocks are dropped.
    f.code = std::move(prologue);
    for (size_t index : cfg.reverse_post_order) {
      Block& b = cfg.blocks[index];
      f.code.push_back(Instruction(Op::OpLabel, 0, b.label));
      std::move(b.body.begin(), b.body.end(), std::back_inserter(f.code));
    }
    std::move(epilogue.begin(), epilogue.end(), std::back_inserter(f.code));
  }

  // Returns the continue target of every loop.
  static std::vector<uint32_t> add_loop_merges(Module& m, Cfg& cfg) {
    cfg.analyze();
    struct Loop {
      uint32_t header, latch;
    };
    std::vector<Loop> loops;
    for (size_t b = 0; b < cfg.blocks.size(); ++b)
      for (size_t s : cfg.succ[b])
        if (cfg.dominates(s, b)) {
          if (std::ranges::any_of(loops, [&](const Loop& l) { return l.header == cfg.blocks[s].label; }))
            throw CompileError("internal error: a loop with several back edges survived structurization");
          loops.push_back({cfg.blocks[s].label, cfg.blocks[b].label});
        }

    std::vector<uint32_t> continue_targets;
    for (const Loop& loop : loops) {
      auto find = [&](uint32_t label) {
        return size_t(std::ranges::find_if(cfg.blocks, [&](const Block& b) { return b.label == label; }) -
                      cfg.blocks.begin());
      };
      uint32_t continue_target = loop.latch;
      if (loop.latch != loop.header) continue_target = split_after_phis(m, cfg.blocks, find(loop.latch));
      continue_targets.push_back(continue_target);

      std::vector<uint32_t> latch_successors = cfg.blocks[find(continue_target)].successors();
      std::erase(latch_successors, loop.header);
      if (latch_successors.size() != 1)
        throw CompileError("internal error: a loop without a single exit survived structurization");
      uint32_t merge = latch_successors[0];

      size_t h = find(loop.header);
      if (cfg.blocks[h].terminator().opcode == Op::OpBranchConditional && continue_target != loop.header)
        split_after_phis(m, cfg.blocks, h);
      std::vector<Instruction>& body = cfg.blocks[h].body;
      body.insert(body.end() - 1, std::move(Instruction(Op::OpLoopMerge, 0, 0)
                                                .id(merge)
                                                .id(continue_target)
                                                .literal(uint32_t(spv::LoopControlMask::MaskNone))));
    }
    return continue_targets;
  }
};

}  // namespace

std::unique_ptr<Pass> make_structurize_control_flow() { return std::make_unique<StructurizeControlFlow>(); }

}  // namespace vkcl::spirv
