#include "control_flow_graph.h"

#include <algorithm>

#include "compile_error.h"

namespace vkcl::spirv {

std::vector<uint32_t> Block::successors() const {
  const Instruction& t = body.back();
  if (t.opcode == Op::OpBranch) return {t.word(0)};
  if (t.opcode == Op::OpBranchConditional) return {t.word(1), t.word(2)};
  if (t.opcode == Op::OpSwitch) throw CompileError("internal error: OpSwitch survived lowerswitch");
  return {};
}

void Block::rename_phi_parent(uint32_t from, uint32_t to) {
  for (Instruction& i : body) {
    if (i.opcode != Op::OpPhi) break;
    for (size_t w = 1; w < i.words.size(); w += 2)
      if (i.words[w] == from) i.words[w] = to;
  }
}

Cfg Cfg::of(Function& f) {
  Cfg cfg;
  for (Instruction& i : f.code) {
    if (i.opcode == Op::OpLabel) {
      cfg.blocks.push_back({i.result_id, {}});
    } else if (i.opcode == Op::OpFunctionEnd) {
      cfg.epilogue.push_back(std::move(i));
    } else if (cfg.blocks.empty()) {
      cfg.prologue.push_back(std::move(i));
    } else {
      cfg.blocks.back().body.push_back(std::move(i));
    }
  }
  f.code.clear();
  cfg.analyze();
  return cfg;
}

void Cfg::write_back(Function& f) {
  analyze();
  // Dominators must come first in the binary (SPIR-V 2.16.1).
  f.code = std::move(prologue);
  for (size_t b : reverse_post_order) {
    f.code.push_back(Instruction(Op::OpLabel, 0, blocks[b].label));
    std::move(blocks[b].body.begin(), blocks[b].body.end(), std::back_inserter(f.code));
  }
  std::move(epilogue.begin(), epilogue.end(), std::back_inserter(f.code));
  blocks.clear();
}

void Cfg::analyze() {
  const size_t n = blocks.size();
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
  ipdom = post_dominators([&](size_t b) { return succ[b]; });
}

std::vector<size_t> Cfg::post_dominators(const std::function<std::vector<size_t>(size_t)>& successors) const {
  // Dominators of the reverse graph from a virtual exit.
  const size_t n = blocks.size();
  std::vector<std::vector<size_t>> rsucc(n + 1), rpred(n + 1);
  for (size_t i = 0; i < n; ++i) {
    const std::vector<size_t> s = successors(i);
    if (s.empty()) {
      rsucc[n].push_back(i);
      rpred[i].push_back(n);
    }
    for (size_t t : s) {
      rsucc[t].push_back(i);
      rpred[i].push_back(t);
    }
  }
  return dominators(n + 1, n, [&](size_t b) { return rsucc[b]; }, [&](size_t b) { return rpred[b]; }, nullptr);
}

bool Cfg::dominates(size_t a, size_t b) const {
  for (size_t x = b; x != kNone; x = x == idom[x] ? kNone : idom[x])
    if (x == a) return true;
  return false;
}

std::vector<Cfg::Loop> Cfg::loops() const {
  std::vector<Loop> found;
  for (size_t b : reverse_post_order)
    for (size_t s : succ[b])
      if (dominates(s, b)) {
        Loop loop{s, b, std::vector<bool>(blocks.size(), false)};
        loop.body[s] = true;
        std::vector<size_t> work{b};
        while (!work.empty()) {
          const size_t x = work.back();
          work.pop_back();
          if (loop.body[x]) continue;
          loop.body[x] = true;
          for (size_t p : pred[x]) work.push_back(p);
        }
        found.push_back(std::move(loop));
      }
  // An outer loop's header comes before its inner loops' in reverse post-order.
  std::vector<size_t> position(blocks.size(), 0);
  for (size_t i = 0; i < reverse_post_order.size(); ++i) position[reverse_post_order[i]] = i;
  std::stable_sort(found.begin(), found.end(),
                   [&](const Loop& a, const Loop& b) { return position[a.header] < position[b.header]; });
  return found;
}

std::vector<size_t> Cfg::dominators(size_t n, size_t entry, const std::function<std::vector<size_t>(size_t)>& successors,
                                    const std::function<std::vector<size_t>(size_t)>& predecessors,
                                    std::vector<size_t>* reverse_post_order) {
  std::vector<size_t> order, rpo_number(n, kNone);
  std::vector<bool> seen(n, false);
  std::vector<std::pair<size_t, size_t>> stack{{entry, 0}};
  seen[entry] = true;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    const std::vector<size_t> s = successors(b);
    if (next < s.size()) {
      const size_t c = s[next++];
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

void rewrite_loops_one_at_a_time(Function& f, const std::function<bool(Cfg&, const Cfg::Loop&)>& rewrite) {
  Cfg cfg = Cfg::of(f);
  for (bool changed = true; changed;) {
    changed = false;
    for (const Cfg::Loop& loop : cfg.loops())
      if (rewrite(cfg, loop)) {
        changed = true;
        break;
      }
  }
  cfg.write_back(f);
}

}  // namespace vkcl::spirv
