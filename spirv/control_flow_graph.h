// The control-flow graph of one function, for the passes that restructure
// it (route_loop_breaks, structurize_control_flow): its blocks, their
// successors and predecessors, dominators, post-dominators and natural loops.
// An analysis, not a cache: a pass that changes the blocks calls analyze()
// again before it reads any of it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "module.h"

namespace vkcl::spirv {

struct Block {
  uint32_t label = 0;
  std::vector<Instruction> body;  // after the label, terminator last

  Instruction& terminator() { return body.back(); }
  const Instruction& terminator() const { return body.back(); }
  // Throws CompileError for OpSwitch (clc's lowerswitch leaves none).
  std::vector<uint32_t> successors() const;
  // Replaces `from` by `to` among the parents of this block's phis.
  void rename_phi_parent(uint32_t from, uint32_t to);
};

struct Cfg {
  static constexpr size_t kNone = SIZE_MAX;

  std::vector<Instruction> prologue, epilogue;  // OpFunction and its parameters; OpFunctionEnd
  std::vector<Block> blocks;
  std::unordered_map<uint32_t, size_t> index;  // label -> position in blocks
  std::vector<std::vector<size_t>> succ, pred;
  std::vector<size_t> idom, ipdom;         // ipdom: blocks.size() is the virtual exit
  std::vector<size_t> reverse_post_order;  // reachable blocks only

  // Moves `f`'s code into blocks (and analyzes it); write_back() returns it,
  // in reverse post-order, unreachable blocks dropped.
  static Cfg of(Function& f);
  void write_back(Function& f);

  void analyze();
  bool dominates(size_t a, size_t b) const;
  // Immediate post-dominators over the graph `successors` gives (blocks.size():
  // the virtual exit that every block without successors reaches).
  std::vector<size_t> post_dominators(const std::function<std::vector<size_t>(size_t)>& successors) const;

  // A natural loop: the target of a back edge (a successor that dominates
  // its block), the back edge's source, and every block of the loop.
  struct Loop {
    size_t header = kNone, latch = kNone;
    std::vector<bool> body;  // indexed by block
  };
  // Every back edge's loop, outermost first where loops nest.
  std::vector<Loop> loops() const;

  // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
  static std::vector<size_t> dominators(size_t n, size_t entry, const std::function<std::vector<size_t>(size_t)>& successors,
                                        const std::function<std::vector<size_t>(size_t)>& predecessors,
                                        std::vector<size_t>* reverse_post_order);
};

// Restructures `f`'s loops one at a time: `rewrite` either changes the CFG
// and returns true, or leaves it as it was; after each change the loops are
// found again, until no rewrite changes anything. Each caller's rewrite must
// make progress that cannot go on forever, and says why.
void rewrite_loops_one_at_a_time(Function& f, const std::function<bool(Cfg&, const Cfg::Loop&)>& rewrite);

}  // namespace vkcl::spirv
