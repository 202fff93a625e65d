// structurize_control_flow: adds the merge instructions Shader modules need.
//
// Expects the CFG that LLVM's structurizecfg leaves (clc runs lowerswitch,
// mergereturn, fix-irreducible, unify-loop-exits and structurizecfg before
// translation, then tools/clc/rejoin_if_else, which merges its serialized
// if/else pairs back into diamonds): reducible, one return, every loop a
// do-while whose latch is its only back edge; its exits all lead to the
// block its latch exits to (route_loop_breaks, just before, may have made
// some of them branch there from the body: breaks). On that shape the
// constructs follow from the dominator trees:
//   loop header H, latch L, exit M:  OpLoopMerge M L' in H, where L' is the
//     latch split after its phis, so that selections in the body can merge at
//     L (a continue target cannot be a selection merge); when H itself
//     branches, it is split too, so that it holds only the loop merge.
//   a conditional branch to the merge block of its innermost loop: a break,
//     which needs no merge of its own.
//   any other conditional branch in B:  OpSelectionMerge ipdom(B), where the
//     post-dominators count each break as a branch to its loop's L (so that a
//     selection that holds a break merges inside the loop).
//   a loop tested at its top (unrotate_loops, before): its header H ends in
//     the branch that enters the body or leaves; H holds OpLoopMerge M C with
//     that branch, and C is the latch's back edge split off on its own.
// Anything else (a loop with two back edges or exits, a branch with no
// post-dominator) is reported as an internal error rather than emitted.
#include <algorithm>

#include "compile_error.h"
#include "control_flow_graph.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

// Splits `blocks[b]` before `blocks[b].body[at]`: the first half keeps the
// label and branches to a new block holding the rest. Returns the new label.
uint32_t split_block(Module& m, std::vector<Block>& blocks, size_t b, size_t at) {
  Block tail;
  tail.label = m.new_id();
  const auto first_moved = blocks[b].body.begin() + ptrdiff_t(at);
  tail.body.assign(std::make_move_iterator(first_moved), std::make_move_iterator(blocks[b].body.end()));
  blocks[b].body.erase(first_moved, blocks[b].body.end());
  blocks[b].body.push_back(std::move(Instruction(Op::OpBranch, 0, 0).id(tail.label)));
  uint32_t head_label = blocks[b].label;
  for (uint32_t s : tail.successors())
    for (Block& candidate : blocks)
      if (candidate.label == s) candidate.rename_phi_parent(head_label, tail.label);
  blocks.insert(blocks.begin() + ptrdiff_t(b) + 1, std::move(tail));
  return blocks[b + 1].label;
}

uint32_t split_after_phis(Module& m, std::vector<Block>& blocks, size_t b) {
  const auto& body = blocks[b].body;
  const auto first_non_phi = std::ranges::find_if(body, [](const Instruction& i) { return i.opcode != Op::OpPhi; });
  return split_block(m, blocks, b, size_t(first_non_phi - body.begin()));
}

// A loop as add_loop_merges placed it.
struct LoopMerges {
  uint32_t header = 0;
  uint32_t body_end = 0;  // the latch's first half: where the body's selections may merge
  uint32_t continue_target = 0;
  uint32_t merge = 0;
};

class StructurizeControlFlow final : public Pass {
 public:
  std::string_view name() const override { return "structurize_control_flow"; }

  void run(Module& m, LoweringContext&) override {
    for (Function& f : m.functions) structurize(m, f);
  }

 private:
  static void structurize(Module& m, Function& f) {
    Cfg cfg = Cfg::of(f);
    for (Block& b : cfg.blocks) {  // a conditional branch to one target is a branch
      Instruction& t = b.terminator();
      if (t.opcode == Op::OpBranchConditional && t.word(1) == t.word(2))
        t = std::move(Instruction(Op::OpBranch, 0, 0).id(t.word(1)));
    }

    const std::vector<LoopMerges> loops = add_loop_merges(m, cfg);
    cfg.analyze();
    // Each block's innermost loop (index into `loops`), from the natural loops of the back edges.
    std::vector<size_t> innermost(cfg.blocks.size(), Cfg::kNone);
    for (const Cfg::Loop& natural : cfg.loops()) {  // outermost first: inner loops overwrite
      const uint32_t header = cfg.blocks[natural.header].label;
      const size_t l = size_t(std::ranges::find(loops, header, &LoopMerges::header) - loops.begin());
      for (size_t b = 0; b < cfg.blocks.size(); ++b)
        if (natural.body[b]) innermost[b] = l;
    }
    // (A header that leaves its loop, as one tested at its top does, holds the
    // loop merge: that branch is the loop's exit, not a break.)
    auto is_break = [&](size_t from, size_t to) {
      return innermost[from] != Cfg::kNone && cfg.blocks[to].label == loops[innermost[from]].merge &&
             cfg.blocks[from].label != loops[innermost[from]].continue_target &&
             cfg.blocks[from].label != loops[innermost[from]].header;
    };
    const std::vector<size_t> ipdom = cfg.post_dominators([&](size_t b) {
      std::vector<size_t> successors = cfg.succ[b];
      for (size_t& s : successors)
        if (is_break(b, s)) s = cfg.index.at(loops[innermost[b]].body_end);
      return successors;
    });

    for (size_t b = 0; b < cfg.blocks.size(); ++b) {
      Block& block = cfg.blocks[b];
      if (block.terminator().opcode != Op::OpBranchConditional) continue;
      if (block.body.size() >= 2 && block.body[block.body.size() - 2].opcode == Op::OpLoopMerge) continue;
      if (std::ranges::count(loops, block.label, &LoopMerges::continue_target)) continue;  // the back-edge branch
      if (std::ranges::any_of(cfg.succ[b], [&](size_t s) { return is_break(b, s); })) continue;
      size_t merge = ipdom[b];
      if (merge == Cfg::kNone || merge >= cfg.blocks.size())
        throw CompileError("internal error: a branch without a merge point survived structurization");
      block.body.insert(block.body.end() - 1, std::move(Instruction(Op::OpSelectionMerge, 0, 0)
                                                            .id(cfg.blocks[merge].label)
                                                            .literal(uint32_t(spv::SelectionControlMask::MaskNone))));
    }
    cfg.write_back(f);  // in reverse post-order: dominators first (SPIR-V 2.16.1)
  }

  static std::vector<LoopMerges> add_loop_merges(Module& m, Cfg& cfg) {
    cfg.analyze();
    struct Loop {
      uint32_t header, latch;
      std::vector<uint32_t> exits;  // successors of the loop's blocks outside it, once each
    };
    std::vector<Loop> loops;
    for (const Cfg::Loop& natural : cfg.loops()) {
      const uint32_t header = cfg.blocks[natural.header].label;
      if (std::ranges::any_of(loops, [&](const Loop& l) { return l.header == header; }))
        throw CompileError("internal error: a loop with several back edges survived structurization");
      Loop loop{header, cfg.blocks[natural.latch].label, {}};
      for (size_t b = 0; b < cfg.blocks.size(); ++b)
        if (natural.body[b])
          for (size_t s : cfg.succ[b])
            if (!natural.body[s] && !std::ranges::count(loop.exits, cfg.blocks[s].label))
              loop.exits.push_back(cfg.blocks[s].label);
      loops.push_back(std::move(loop));
    }

    std::vector<LoopMerges> placed;
    for (const Loop& loop : loops) {
      auto find = [&](uint32_t label) {
        return size_t(std::ranges::find_if(cfg.blocks, [&](const Block& b) { return b.label == label; }) -
                      cfg.blocks.begin());
      };
      if (loop.exits.size() != 1)
        throw CompileError("internal error: a loop without a single exit survived structurization");
      const uint32_t merge = loop.exits[0];
      uint32_t continue_target = loop.latch;
      const bool tested_at_latch = cfg.blocks[find(loop.latch)].terminator().opcode == Op::OpBranchConditional;
      if (tested_at_latch) {
        if (loop.latch != loop.header) continue_target = split_after_phis(m, cfg.blocks, find(loop.latch));
      } else {
        // A loop tested at its top (unrotate_loops): the continue target is
        // the back edge alone, as glslang emits a `for` without an increment.
        if (loop.latch == loop.header)
          throw CompileError("internal error: a loop without a single exit survived structurization");
        const size_t latch = find(loop.latch);
        continue_target = split_block(m, cfg.blocks, latch, cfg.blocks[latch].body.size() - 1);
      }

      size_t h = find(loop.header);
      const Instruction& header_branch = cfg.blocks[h].terminator();
      // A header may hold a loop merge and a branch, but not a selection:
      // unless its branch leaves the loop, the branch moves to a block of its own.
      const bool header_branch_leaves = header_branch.opcode == Op::OpBranchConditional &&
                                        (header_branch.word(1) == merge || header_branch.word(2) == merge);
      if (header_branch.opcode == Op::OpBranchConditional && continue_target != loop.header && !header_branch_leaves)
        split_after_phis(m, cfg.blocks, h);
      std::vector<Instruction>& body = cfg.blocks[h].body;
      body.insert(body.end() - 1, std::move(Instruction(Op::OpLoopMerge, 0, 0)
                                                .id(merge)
                                                .id(continue_target)
                                                .literal(uint32_t(spv::LoopControlMask::MaskNone))));
      placed.push_back({loop.header, loop.latch, continue_target, merge});
    }
    return placed;
  }
};

}  // namespace

std::unique_ptr<Pass> make_structurize_control_flow() { return std::make_unique<StructurizeControlFlow>(); }

}  // namespace vkcl::spirv
