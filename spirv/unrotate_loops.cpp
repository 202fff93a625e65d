// unrotate_loops: tests a loop's condition at its top again, where LLVM's
// loop rotation moved it to the bottom behind a guard.
//
// clc's -O2 rotates `for (k = lid; k < 256; k += 32) body` into
//   G:  if (lid < 256) {            // the guard: the condition on k's first value
//   PH:   ...                       // the preheader
//   H:    do { k = phi(lid, k'); body; k' = k + 32; } while (!(k >= 224));
//       }
//   M:  phis of the values the loop leaves, or of the guard's when it skips
// and rewrites the bottom test in terms of k (k >= 224) rather than k'. That
// is the shape NVIDIA's Vulkan compiler runs slowest: algo_gemv_local_reduce
// took 0.112 ms one way and 0.083 ms with its loop tested at the top, as
// glslang emits the GLSL twin's (docs/performance.md, "Twins of the kernels
// below 0.8x").
//
// The pass gives such a loop a new header H' that holds H's phis, tests the
// guard's condition on them and either enters H or leaves; the latch branches
// back to H' unconditionally. Each value M takes from the loop gets a phi in
// H' (its value on entry: the one M took from the guard). Where the preheader
// computes nothing with side effects, the guard goes too: the test in H' is
// the guard's own on the first trip.
//
// That is right only if, on every later trip, the guard's condition on the
// next values is the latch's condition to go on. The pass proves it in one
// of two ways, or leaves the loop alone:
//   - the latch tests the same comparison as the guard, on the values that
//     flow back to the header instead of the first ones (a bound not known
//     at compile time: `k' < n` against `lid < n`);
//   - the loop counts by a constant step S from a guard `k < B` (or `k > B`
//     with S < 0) to a latch test `k < B - S` that LLVM derived from it, and
//     no value of k the loop can reach overflows k + S: every k reached is
//     below B, so B - 1 + S must fit the type (above B: B + 1 + S).
// It also leaves a loop alone unless it has exactly that shape: one entry
// from the preheader, one back edge, one exit from the latch, the guard's
// two ways meeting in M, and nothing after the loop that uses the loop's
// values but M's phis.
//
// Runs before route_loop_breaks and structurize_control_flow, on the CFG
// structurizecfg leaves (no merge instructions yet).
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "control_flow_graph.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

// The comparison that holds when the operands change places.
std::optional<Op> swapped(Op op) {
  switch (op) {
    case Op::OpIEqual: case Op::OpINotEqual: return op;
    case Op::OpSLessThan: return Op::OpSGreaterThan;
    case Op::OpSGreaterThan: return Op::OpSLessThan;
    case Op::OpSLessThanEqual: return Op::OpSGreaterThanEqual;
    case Op::OpSGreaterThanEqual: return Op::OpSLessThanEqual;
    case Op::OpULessThan: return Op::OpUGreaterThan;
    case Op::OpUGreaterThan: return Op::OpULessThan;
    case Op::OpULessThanEqual: return Op::OpUGreaterThanEqual;
    case Op::OpUGreaterThanEqual: return Op::OpULessThanEqual;
    default: return std::nullopt;
  }
}

// The comparison that holds where `op` does not.
std::optional<Op> negated(Op op) {
  switch (op) {
    case Op::OpIEqual: return Op::OpINotEqual;
    case Op::OpINotEqual: return Op::OpIEqual;
    case Op::OpSLessThan: return Op::OpSGreaterThanEqual;
    case Op::OpSGreaterThanEqual: return Op::OpSLessThan;
    case Op::OpSGreaterThan: return Op::OpSLessThanEqual;
    case Op::OpSLessThanEqual: return Op::OpSGreaterThan;
    case Op::OpULessThan: return Op::OpUGreaterThanEqual;
    case Op::OpUGreaterThanEqual: return Op::OpULessThan;
    case Op::OpUGreaterThan: return Op::OpULessThanEqual;
    case Op::OpULessThanEqual: return Op::OpUGreaterThan;
    default: return std::nullopt;
  }
}

// An integer comparison `lhs op rhs`, oriented so that it is the condition
// to enter (or to stay in) the loop.
struct Comparison {
  Op op = Op::OpNop;
  uint32_t lhs = 0, rhs = 0;

  // The same condition with `value` on the left, if it is an operand.
  std::optional<Comparison> with_on_left(uint32_t value) const {
    if (lhs == value && rhs != value) return *this;
    if (rhs == value && lhs != value)
      if (std::optional<Op> op2 = swapped(op)) return Comparison{*op2, rhs, lhs};
    return std::nullopt;
  }
};

bool is_signed_comparison(Op op) {
  return op == Op::OpSLessThan || op == Op::OpSLessThanEqual || op == Op::OpSGreaterThan || op == Op::OpSGreaterThanEqual;
}

// `value < bound` (below) or `value > bound`, in the integers.
struct StrictBound {
  bool below = true;
  __int128 bound = 0;
};

std::optional<StrictBound> strict_bound(Op op, __int128 k) {
  switch (op) {
    case Op::OpSLessThan: case Op::OpULessThan: return StrictBound{true, k};
    case Op::OpSLessThanEqual: case Op::OpULessThanEqual: return StrictBound{true, k + 1};
    case Op::OpSGreaterThan: case Op::OpUGreaterThan: return StrictBound{false, k};
    case Op::OpSGreaterThanEqual: case Op::OpUGreaterThanEqual: return StrictBound{false, k - 1};
    default: return std::nullopt;
  }
}

// How the loop's counter changes from one trip to the next.
struct Step {
  enum class Kind { kAdd, kShiftRight } kind = Kind::kAdd;
  __int128 amount = 0;  // added, or shifted by
};

// The range of an integer type, read as signed or unsigned.
struct IntegerRange {
  uint32_t width = 0;
  bool is_signed = false;
  __int128 min() const { return is_signed ? -(__int128(1) << (width - 1)) : 0; }
  __int128 max() const { return is_signed ? (__int128(1) << (width - 1)) - 1 : (__int128(1) << width) - 1; }
};

class LoopUnrotator {
 public:
  LoopUnrotator(Module& m, Cfg& cfg, const Cfg::Loop& loop) : m_(m), cfg_(cfg), loop_(loop) {}

  // Changes the CFG and returns true, or leaves it as it was.
  bool run() {
    if (!match_loop()) return false;
    match_guard();
    if (!find_header_test() || !uses_after_the_loop_can_be_carried()) return false;
    rewrite();
    cfg_.analyze();
    return true;
  }

 private:
  Block& block(size_t b) { return cfg_.blocks[b]; }
  const Instruction* definition(uint32_t id) const {
    for (const Block& b : cfg_.blocks)
      for (const Instruction& i : b.body)
        if (i.result_id == id) return &i;
    return nullptr;
  }

  // One entry edge, one back edge, one exit: the latch's conditional branch.
  bool match_loop() {
    header_ = loop_.header;
    latch_ = loop_.latch;
    if (cfg_.pred[header_].size() != 2) return false;
    for (size_t p : cfg_.pred[header_])
      if (p != latch_) entry_ = p;
    if (entry_ == Cfg::kNone || loop_.body[entry_]) return false;
    const Instruction& back = block(latch_).terminator();
    if (back.opcode != Op::OpBranchConditional) return false;
    const uint32_t header_label = block(header_).label;
    if (back.word(1) == header_label && back.word(2) != header_label) stay_on_true_ = true;
    else if (back.word(2) == header_label && back.word(1) != header_label) stay_on_true_ = false;
    else return false;
    exit_ = cfg_.index.at(back.word(stay_on_true_ ? 2 : 1));
    for (size_t b = 0; b < cfg_.blocks.size(); ++b)
      if (loop_.body[b])
        for (size_t s : cfg_.succ[b])
          if (!loop_.body[s] && !(b == latch_ && s == exit_)) return false;
    for (const Instruction& i : block(header_).body) {
      if (i.opcode != Op::OpPhi) break;
      if (i.words.size() != 4) return false;
    }
    return true;
  }

  // The guard, where there is one: a conditional branch, in the entry block
  // or in the preheader's only predecessor, that goes toward the loop or to
  // M, where the loop's exit leads too.
  void match_guard() {
    size_t guard = entry_, toward = header_;
    if (cfg_.succ[entry_].size() == 1) {
      if (cfg_.pred[entry_].size() != 1) return;
      guard = cfg_.pred[entry_][0];
      toward = entry_;
    }
    const Instruction& branch = block(guard).terminator();
    if (branch.opcode != Op::OpBranchConditional || branch.word(1) == branch.word(2)) return;
    const uint32_t toward_label = block(toward).label;
    if (branch.word(1) != toward_label && branch.word(2) != toward_label) return;
    const bool enter_on_true = branch.word(1) == toward_label;
    const size_t merge = cfg_.index.at(branch.word(enter_on_true ? 2 : 1));
    if (loop_.body[merge] || merge == entry_ || cfg_.pred[merge].size() != 2) return;
    size_t exit_edge_from = latch_;
    if (exit_ != merge) {
      const Block& exit = block(exit_);
      if (exit.body.size() != 1 || exit.terminator().opcode != Op::OpBranch ||
          exit.terminator().word(0) != block(merge).label || cfg_.pred[exit_].size() != 1)
        return;
      exit_edge_from = exit_;
    }
    guard_block_ = guard;
    enter_on_true_ = enter_on_true;
    merge_ = merge;
    exit_edge_from_ = exit_edge_from;
  }

  // The header phi's value from `parent`.
  uint32_t incoming(const Instruction& phi, size_t parent) const {
    const uint32_t label = cfg_.blocks[parent].label;
    return phi.words[1] == label ? phi.words[0] : phi.words[2];
  }

  std::optional<Comparison> comparison(uint32_t id, bool holds_when_true) const {
    const Instruction* i = definition(id);
    if (!i || i->words.size() != 2 || !swapped(i->opcode)) return std::nullopt;  // not an integer comparison
    return Comparison{holds_when_true ? i->opcode : *negated(i->opcode), i->word(0), i->word(1)};
  }

  // Finds a header phi and a test on it that holds on the first trip and is
  // the latch's condition to go on on every later one: the guard's own, or
  // one built from the latch's that holds for a constant first value.
  bool find_header_test() {
    const std::optional<Comparison> stay = comparison(block(latch_).terminator().word(0), stay_on_true_);
    if (!stay) return false;
    std::optional<Comparison> enter;
    if (guard_block_ != Cfg::kNone) enter = comparison(block(guard_block_).terminator().word(0), enter_on_true_);
    for (const Instruction& phi : block(header_).body) {
      if (phi.opcode != Op::OpPhi) break;
      const uint32_t first = incoming(phi, entry_), next = incoming(phi, latch_);
      if (enter)
        if (std::optional<Comparison> on_first = with_zero_as_unsigned_bound(enter->with_on_left(first), *stay, next))
          if (same_test_on_next(*on_first, *stay, next) || guard_holds_on_every_trip(*on_first, *stay, phi.result_id, next)) {
            header_test_ = Comparison{on_first->op, phi.result_id, on_first->rhs};
            header_test_is_the_guard_ = true;
            return true;
          }
      if (std::optional<Comparison> test = test_from_latch(*stay, phi.result_id, first, next)) {
        header_test_ = *test;
        return true;
      }
    }
    return false;
  }

  // LLVM writes the guard `0 <u n` of a loop counting up from 0 as `n != 0`:
  // where the latch goes on while `next <u n`, the guard is read as the
  // comparison it is, so that it is the same test as the latch's.
  std::optional<Comparison> with_zero_as_unsigned_bound(std::optional<Comparison> on_first, const Comparison& stay,
                                                         uint32_t next) const {
    if (!on_first || on_first->op != Op::OpINotEqual) return on_first;
    const std::optional<Comparison> on_next = stay.with_on_left(next);
    if (!on_next || on_next->op != Op::OpULessThan || on_next->rhs != on_first->rhs) return on_first;
    if (m_.constant_value(on_first->lhs) != std::optional<uint64_t>(0)) return on_first;  // OpConstant only
    return Comparison{Op::OpULessThan, on_first->lhs, on_first->rhs};
  }

  static bool same_test_on_next(const Comparison& on_first, const Comparison& stay, uint32_t next) {
    const std::optional<Comparison> on_next = stay.with_on_left(next);
    return on_next && on_next->op == on_first.op && on_next->rhs == on_first.rhs;
  }

  std::optional<uint32_t> width_of(uint32_t type) const {
    const std::optional<uint32_t> width = m_.integer_width(type);
    return width && *width <= 64 ? width : std::nullopt;
  }

  // `id` as a constant of `width` bits, read as signed or unsigned.
  std::optional<__int128> constant(uint32_t id, uint32_t width, bool is_signed) const {
    std::optional<uint64_t> bits = m_.constant_value(id);
    if (!bits) return std::nullopt;
    const uint64_t value = width == 64 ? *bits : *bits & ((uint64_t(1) << width) - 1);
    if (is_signed && (value >> (width - 1)) & 1) return __int128(value) - (__int128(1) << width);
    return __int128(value);
  }

  std::optional<Step> step_of(uint32_t phi, uint32_t next, uint32_t width) const {
    const Instruction* i = definition(next);
    if (!i || i->words.size() != 2) return std::nullopt;
    const uint32_t a = i->word(0), b = i->word(1);
    std::optional<__int128> amount;
    switch (i->opcode) {
      case Op::OpIAdd:
        if (a == phi || b == phi) amount = constant(a == phi ? b : a, width, true);
        return amount && *amount ? std::optional<Step>(Step{Step::Kind::kAdd, *amount}) : std::nullopt;
      case Op::OpISub:
        if (a == phi) amount = constant(b, width, true);
        return amount && *amount ? std::optional<Step>(Step{Step::Kind::kAdd, -*amount}) : std::nullopt;
      case Op::OpShiftRightLogical: case Op::OpShiftRightArithmetic:
        if (a == phi) amount = constant(b, width, false);
        return amount && *amount > 0 && *amount < width ? std::optional<Step>(Step{Step::Kind::kShiftRight, *amount})
                                                        : std::nullopt;
      default:
        return std::nullopt;
    }
  }

  // The guard tests `first op B` with constant B; the latch goes on while
  // `k op2 K` on the phi k. True if the guard's test on k's next value is
  // the latch's on k, for every k the loop can reach:
  //   - counting by S > 0 from `first < B`: every k reached is below B (by
  //     induction: k' = k + S < B while k < B - S), so k + S cannot overflow
  //     if B - 1 + S fits, and then `k + S < B` is `k < B - S`. Mirrored for
  //     S < 0 and `first > B`.
  //   - halving (k >> c) from `first > 0` (signed) or `first != 0`: every k
  //     reached is positive, or non-zero, and `(k >> c) != 0` is
  //     `k >= 2^c` read as unsigned (both shifts: a negative k stays so).
  bool guard_holds_on_every_trip(const Comparison& on_first, const Comparison& stay, uint32_t phi, uint32_t next) const {
    const std::optional<Comparison> on_phi = stay.with_on_left(phi);
    const Instruction* phi_instruction = definition(phi);
    if (!on_phi || !phi_instruction) return false;
    const std::optional<uint32_t> width = width_of(phi_instruction->type_id);
    if (!width) return false;
    const std::optional<Step> step = step_of(phi, next, *width);
    if (!step) return false;
    const IntegerRange range{*width, is_signed_comparison(on_first.op)};
    const std::optional<__int128> b = constant(on_first.rhs, *width, range.is_signed);
    const std::optional<__int128> k = constant(on_phi->rhs, *width, is_signed_comparison(on_phi->op));
    if (!b || !k) return false;
    if (step->kind == Step::Kind::kShiftRight) {
      const std::optional<StrictBound> stays = strict_bound(on_phi->op, *k);
      const bool positive = on_first.op == Op::OpSGreaterThan && *b == 0;
      const bool non_zero = (on_first.op == Op::OpINotEqual || on_first.op == Op::OpUGreaterThan) && *b == 0;
      // A signed `k >= 2^c` is the unsigned one only where k is positive.
      return stays && !stays->below && stays->bound == (__int128(1) << step->amount) - 1 &&
             (positive || (non_zero && !is_signed_comparison(on_phi->op)));
    }
    if (is_signed_comparison(on_phi->op) != range.is_signed) return false;
    const std::optional<StrictBound> entered = strict_bound(on_first.op, *b), stays = strict_bound(on_phi->op, *k);
    if (!entered || !stays || entered->below != stays->below || stays->bound != entered->bound - step->amount) return false;
    return counting_cannot_overflow(*entered, step->amount, range);
  }

  static bool counting_cannot_overflow(const StrictBound& entered, __int128 step, const IntegerRange& range) {
    if (entered.below) return step > 0 && entered.bound - 1 + step <= range.max();
    return step < 0 && entered.bound + 1 + step >= range.min();
  }

  static bool holds(Op op, __int128 a, __int128 b) {
    switch (op) {
      case Op::OpIEqual: return a == b;
      case Op::OpINotEqual: return a != b;
      case Op::OpSLessThan: case Op::OpULessThan: return a < b;
      case Op::OpSLessThanEqual: case Op::OpULessThanEqual: return a <= b;
      case Op::OpSGreaterThan: case Op::OpUGreaterThan: return a > b;
      case Op::OpSGreaterThanEqual: case Op::OpUGreaterThanEqual: return a >= b;
      default: return false;
    }
  }

  // A test for a loop without a guard to copy, whose phi starts from a
  // constant: the latch's own test moved onto the phi where the latch tests
  // the next value, or where it tests k for k + S the bound the guard would
  // have had (`k < K` going on: `k < K + S`), or k >= 2^c for k >> c (`k != 0`).
  // Each must hold for the first value, so the loop still runs its first trip.
  std::optional<Comparison> test_from_latch(const Comparison& stay, uint32_t phi, uint32_t first, uint32_t next) {
    const Instruction* phi_instruction = definition(phi);
    const std::optional<uint32_t> width = phi_instruction ? width_of(phi_instruction->type_id) : std::nullopt;
    if (!width) return std::nullopt;
    if (std::optional<Comparison> on_next = stay.with_on_left(next)) {
      const bool is_signed = is_signed_comparison(on_next->op);
      const std::optional<__int128> a = constant(first, *width, is_signed), b = constant(on_next->rhs, *width, is_signed);
      if (a && b && holds(on_next->op, *a, *b)) return Comparison{on_next->op, phi, on_next->rhs};
      return std::nullopt;
    }
    const std::optional<Comparison> on_phi = stay.with_on_left(phi);
    const std::optional<Step> step = step_of(phi, next, *width);
    if (!on_phi || !step) return std::nullopt;
    const IntegerRange range{*width, is_signed_comparison(on_phi->op)};
    const std::optional<__int128> a = constant(first, *width, range.is_signed);
    const std::optional<__int128> k = constant(on_phi->rhs, *width, range.is_signed);
    const std::optional<StrictBound> stays = k ? strict_bound(on_phi->op, *k) : std::nullopt;
    if (!a || !stays) return std::nullopt;
    if (step->kind == Step::Kind::kShiftRight) {
      if (range.is_signed || stays->below || stays->bound != (__int128(1) << step->amount) - 1 || *a == 0)
        return std::nullopt;
      return Comparison{Op::OpINotEqual, phi, m_.constant_int(phi_instruction->type_id, 0)};
    }
    const StrictBound entered{stays->below, stays->bound + step->amount};
    if (entered.bound < range.min() || entered.bound > range.max() || !counting_cannot_overflow(entered, step->amount, range) ||
        !(entered.below ? *a < entered.bound : *a > entered.bound))
      return std::nullopt;
    const Op op = entered.below ? (range.is_signed ? Op::OpSLessThan : Op::OpULessThan)
                                : (range.is_signed ? Op::OpSGreaterThan : Op::OpUGreaterThan);
    return Comparison{op, phi, m_.constant_int(phi_instruction->type_id, uint64_t(entered.bound))};
  }

  // Whether the guard can go: the test in H' is the guard's, and what runs
  // between the guard and the loop may run when the loop does not.
  bool guard_can_go() {
    if (guard_block_ == Cfg::kNone || !header_test_is_the_guard_) return false;
    if (guard_block_ == entry_) return true;
    return std::ranges::all_of(block(entry_).body, [](const Instruction& i) {
      return i.opcode == Op::OpBranch || is_pure_operation(i.opcode);
    });
  }

  // After the loop, a value the loop's body defines is used only by M's
  // phis, on the edge from the exit, or where a header phi carries it back
  // (its value from the latch): the loop now leaves from H', which the body
  // no longer dominates. (The header's own phis move to H' and can be carried.)
  bool uses_after_the_loop_can_be_carried() {
    std::unordered_set<uint32_t>& defined = body_definitions_;
    for (size_t b = 0; b < cfg_.blocks.size(); ++b)
      if (loop_.body[b])
        for (const Instruction& i : block(b).body)
          if (i.result_id && !(b == header_ && i.opcode == Op::OpPhi)) defined.insert(i.result_id);
    const uint32_t exit_edge_label = merge_ == Cfg::kNone ? 0 : block(exit_edge_from_).label;
    for (size_t b = 0; b < cfg_.blocks.size(); ++b) {
      if (loop_.body[b]) continue;
      for (Instruction& i : block(b).body) {
        if (b == merge_ && i.opcode == Op::OpPhi) {
          for (size_t w = 0; w + 1 < i.words.size(); w += 2)
            if (defined.contains(i.words[w]) && i.words[w + 1] != exit_edge_label) return false;
          continue;
        }
        bool carried = true;
        i.for_each_used_id([&](uint32_t& id) {
          if (defined.contains(id)) carried = carried && carrier_in(block(header_), id) != 0;
        });
        if (!carried) return false;
      }
    }
    return true;
  }

  // The phi among `block`'s whose value from the latch is `id`, or 0.
  uint32_t carrier_in(const Block& block, uint32_t id) const {
    for (const Instruction& phi : block.body) {
      if (phi.opcode != Op::OpPhi) break;
      if (incoming(phi, latch_) == id) return phi.result_id;
    }
    return 0;
  }

  void rewrite() {
    const bool guard_goes = guard_can_go();
    const uint32_t new_header_label = m_.new_id();
    const uint32_t header_label = block(header_).label;
    const uint32_t entry_label = block(entry_).label;
    Block new_header{new_header_label, {}};
    // H's phis move to H'; their parents (the entry, the latch) are H''s.
    std::vector<Instruction>& header_body = block(header_).body;
    auto first_non_phi = std::ranges::find_if(header_body, [](const Instruction& i) { return i.opcode != Op::OpPhi; });
    new_header.body.assign(header_body.begin(), first_non_phi);
    header_body.erase(header_body.begin(), first_non_phi);

    // Uses after the loop (but M's phis) of what the loop defines: a value
    // the body computes is what the header phi that carries it back holds
    // when H' leaves; a header phi's value on the last trip needs a phi of
    // its own in H', which holds it one trip later (on entry: its first value,
    // never read, as the loop then always runs a trip before it leaves).
    std::unordered_set<uint32_t> header_phis;
    for (const Instruction& phi : new_header.body) header_phis.insert(phi.result_id);
    std::unordered_map<uint32_t, uint32_t> on_last_trip;
    std::vector<Instruction> last_trip_phis;
    auto last_trip = [&](uint32_t phi) {
      if (auto found = on_last_trip.find(phi); found != on_last_trip.end()) return found->second;
      const Instruction& original = *std::ranges::find(new_header.body, phi, &Instruction::result_id);
      Instruction previous(Op::OpPhi, original.type_id, m_.new_id());
      previous.id(incoming(original, entry_)).id(block(entry_).label).id(phi).id(block(latch_).label);
      last_trip_phis.push_back(previous);
      return on_last_trip[phi] = previous.result_id;
    };
    for (size_t b = 0; b < cfg_.blocks.size(); ++b)
      if (!loop_.body[b])
        for (Instruction& i : block(b).body)
          if (!(b == merge_ && i.opcode == Op::OpPhi))
            i.for_each_used_id([&](uint32_t& id) {
              if (header_phis.contains(id)) id = last_trip(id);
              else if (body_definitions_.contains(id)) id = carrier_in(new_header, id);
            });
    new_header.body.insert(new_header.body.end(), last_trip_phis.begin(), last_trip_phis.end());
    if (merge_ != Cfg::kNone) carry_merge_values(new_header, guard_goes);
    // The exit is entered from H' now, not from the latch: its phis (but
    // M's, which carry_merge_values rewrote) name H' as their parent. The
    // exit may be another loop's header (OpenMM's neighbour-list kernel).
    if (exit_ != merge_) block(exit_).rename_phi_parent(block(latch_).label, new_header_label);

    // H' tests, then enters H or leaves.
    Instruction test(header_test_.op, m_.type_bool(), m_.new_id());
    test.id(header_test_.lhs).id(header_test_.rhs);
    new_header.body.push_back(test);
    new_header.body.push_back(std::move(Instruction(Op::OpBranchConditional, 0, 0)
                                            .id(test.result_id)
                                            .id(header_label)
                                            .id(block(exit_).label)));
    // The latch and the entry go to H'; a guard that goes only toward the loop.
    block(latch_).terminator() = std::move(Instruction(Op::OpBranch, 0, 0).id(new_header_label));
    Instruction& enter = block(entry_).terminator();
    for (size_t w = enter.opcode == Op::OpBranchConditional ? 1 : 0; w < enter.words.size(); ++w)
      if (enter.words[w] == header_label) enter.words[w] = new_header_label;
    if (guard_goes) {
      const uint32_t toward = guard_block_ == entry_ ? new_header_label : entry_label;
      block(guard_block_).terminator() = std::move(Instruction(Op::OpBranch, 0, 0).id(toward));
    }
    cfg_.blocks.push_back(std::move(new_header));
  }

  // A phi in H' for each value M takes from the loop; its value on entry is
  // the one M took from the guard, which it then no longer needs if the guard goes.
  void carry_merge_values(Block& new_header, bool guard_goes) {
    const uint32_t latch_label = block(latch_).label, entry_label = block(entry_).label;
    const uint32_t guard_label = block(guard_block_).label, exit_edge_label = block(exit_edge_from_).label;
    for (Instruction& phi : block(merge_).body) {
      if (phi.opcode != Op::OpPhi) break;
      uint32_t from_loop = 0, from_guard = 0;
      for (size_t w = 0; w + 1 < phi.words.size(); w += 2) {
        if (phi.words[w + 1] == exit_edge_label) from_loop = phi.words[w];
        if (phi.words[w + 1] == guard_label) from_guard = phi.words[w];
      }
      uint32_t carried = 0;
      for (const Instruction& h : new_header.body)
        if (h.opcode == Op::OpPhi && incoming(h, latch_) == from_loop && incoming(h, entry_) == from_guard)
          carried = h.result_id;
      if (!carried) {
        Instruction q(Op::OpPhi, phi.type_id, m_.new_id());
        q.id(from_guard).id(entry_label).id(from_loop).id(latch_label);
        new_header.body.push_back(q);
        carried = q.result_id;
      }
      const uint32_t new_exit_edge_label = exit_edge_from_ == latch_ ? new_header.label : exit_edge_label;
      std::vector<uint32_t> words;
      for (size_t w = 0; w + 1 < phi.words.size(); w += 2) {
        if (phi.words[w + 1] == exit_edge_label) words.insert(words.end(), {carried, new_exit_edge_label});
        else if (phi.words[w + 1] != guard_label || !guard_goes) words.insert(words.end(), {phi.words[w], phi.words[w + 1]});
      }
      phi.words = words;
      phi.is_id.assign(words.size(), true);
    }
  }

  Module& m_;
  Cfg& cfg_;
  const Cfg::Loop& loop_;
  size_t header_ = Cfg::kNone, latch_ = Cfg::kNone, entry_ = Cfg::kNone, exit_ = Cfg::kNone;
  bool stay_on_true_ = false;
  // The guard (none: kNone), its merge M with the loop's exit, and the block whose edge to M leaves the loop.
  size_t guard_block_ = Cfg::kNone, merge_ = Cfg::kNone, exit_edge_from_ = Cfg::kNone;
  bool enter_on_true_ = false;
  Comparison header_test_;
  bool header_test_is_the_guard_ = false;
  // What the loop defines, its header's phis excepted (uses_after_the_loop_can_be_carried).
  std::unordered_set<uint32_t> body_definitions_;
};

class UnrotateLoops final : public Pass {
 public:
  std::string_view name() const override { return "unrotate_loops"; }

  void run(Module& m, LoweringContext&) override {
    // Each change takes a conditional branch out of a latch, so this ends.
    for (Function& f : m.functions)
      rewrite_loops_one_at_a_time(f, [&](Cfg& cfg, const Cfg::Loop& loop) { return LoopUnrotator(m, cfg, loop).run(); });
  }
};

}  // namespace

std::unique_ptr<Pass> make_unrotate_loops() { return std::make_unique<UnrotateLoops>(); }

}  // namespace vkcl::spirv
