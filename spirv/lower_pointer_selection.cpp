// lower_pointer_selection: pointers to __local and __private memory chosen at
// run time (OpPhi, OpSelect) become indices into one variable.
//
// Logical addressing forbids pointer-typed phis and selects. The
// VariablePointers capability would allow them for Workgroup memory only
// (never for Function or Private), and only on devices with the
// variablePointers feature; this rewrite works on every Vulkan 1.1 device
// and for every logical storage class, so vkcl never needs that feature:
//
//  1. Roots. Every pointer of the Workgroup, Function or Private storage
//     class is an access chain rooted at a variable. The variables that one
//     phi or select may choose between (transitively) are merged into one
//     variable of type U[n1 + n2 + ...], where U is their common unit type
//     (the element type of an array variable, the type itself of any other)
//     and each variable's part starts at a constant offset (a specialization
//     constant expression for __local argument arrays, whose lengths are
//     specialization constants). The ping-pong buffers `__local float a[64],
//     b[64]` become one float[128]; `&a[i]` becomes `&ab[i]`, `&b[i]`
//     `&ab[64 + i]`. Merged variables keep their initializers (program-scope
//     __constant tables).
//  2. Indices. Every access chain on such a pointer is folded into one
//     OpAccessChain from its root, and a pointer phi or select becomes one
//     integer phi or select per index, with the pointer rebuilt as an access
//     chain after them: swapping `src` and `dst` in a loop swaps two offsets.
//
// CompileError (never invalid SPIR-V): variables of different unit types or
// storage classes chosen between; pointers chosen between different members
// of a struct, or to aggregates at different depths; whole-array uses of a
// merged array variable (only element accesses can be moved); pointers
// loaded from memory or cast (legalize_pointers reports those).
#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <unordered_map>

#include "compile_error.h"
#include "passes.h"

namespace vkcl::spirv {
namespace {

using spv::StorageClass;

bool is_logical(std::optional<StorageClass> s) {
  return s == StorageClass::Workgroup || s == StorageClass::Function || s == StorageClass::Private;
}

bool has_element(Op op) { return op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain; }

const char* kChosenAtRunTime = "a pointer to __local or __private memory that is chosen at run time";

// Union-find over variable ids.
class Roots {
 public:
  uint32_t find(uint32_t id) {
    auto it = parent_.find(id);
    if (it == parent_.end() || it->second == id) return id;
    return it->second = find(it->second);
  }
  void unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent_[std::max(a, b)] = std::min(a, b);
  }

 private:
  std::unordered_map<uint32_t, uint32_t> parent_;
};

// One variable's place in a merged variable.
struct Part {
  uint32_t merged = 0;        // the merged variable
  uint32_t offset = 0;        // id of a uint constant or spec-constant expression
  bool is_array = false;      // the variable was an array (its first index moves), else one element
  uint32_t pointer_type = 0;  // the variable's own type
};

// A logical pointer as a root variable and the indices of an OpAccessChain from it.
struct Path {
  uint32_t root = 0;
  std::vector<uint32_t> indices;
  // A pointer to a whole array variable that was merged into `root`: its
  // elements start at the last index, and the pointer itself has no access
  // chain (its type is not the merged one's); only access chains may use it.
  bool view = false;
};

class LowerPointerSelection final : public Pass {
 public:
  std::string_view name() const override { return "lower_pointer_selection"; }

  void run(Module& m, LoweringContext&) override {
    std::vector<Function*> functions;
    for (Function& f : m.functions)
      if (std::ranges::any_of(f.code, [&](const Instruction& i) { return is_selection(m, i); })) functions.push_back(&f);
    if (functions.empty()) return;

    Roots roots;
    for (Function* f : functions) find_roots(m, *f, roots);
    std::map<uint32_t, Part> parts = merge_roots(m, roots);
    if (!parts.empty())
      for (Function& f : m.functions) move_uses_to_merged(m, f, parts);
    for (Function* f : functions) rewrite_selections(m, *f, parts);
  }

 private:
  static bool is_selection(const Module& m, const Instruction& i) {
    return (i.opcode == Op::OpPhi || i.opcode == Op::OpSelect) && i.type_id && is_logical(m.storage_class_of(i.type_id));
  }

  // The pointer operands of a phi or select.
  static std::vector<uint32_t> choices(const Instruction& i) {
    if (i.opcode == Op::OpSelect) return {i.word(1), i.word(2)};
    std::vector<uint32_t> values;
    for (size_t w = 0; w < i.words.size(); w += 2) values.push_back(i.word(w));
    return values;
  }

  static bool is_variable(const Module& m, const Function& f, uint32_t id) {
    if (const Instruction* g = m.find_global(id)) return g->opcode == Op::OpVariable;
    return std::ranges::any_of(f.code, [&](const Instruction& i) { return i.opcode == Op::OpVariable && i.result_id == id; });
  }

  static bool is_placeholder(const Module& m, uint32_t id) {
    const Instruction* g = m.find_global(id);
    return g && (g->opcode == Op::OpUndef || g->opcode == Op::OpConstantNull);
  }

  // Unites the root variables of the choices of every phi and select.
  static void find_roots(const Module& m, const Function& f, Roots& roots) {
    std::unordered_map<uint32_t, uint32_t> root_of;  // pointer value → a root variable
    auto lookup = [&](uint32_t id) -> uint32_t {
      if (auto it = root_of.find(id); it != root_of.end()) return it->second;
      return is_variable(m, f, id) ? id : 0;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (const Instruction& i : f.code) {
        if (!i.type_id || !is_logical(m.storage_class_of(i.type_id))) continue;
        uint32_t root = 0;
        if (is_chain(i.opcode) || i.opcode == Op::OpCopyObject) {
          root = lookup(i.word(0));
        } else if (is_selection(m, i)) {
          for (uint32_t choice : choices(i)) {
            const uint32_t r = lookup(choice);
            if (r == 0) continue;
            if (root != 0) roots.unite(root, r);
            root = r;
          }
        }
        if (root != 0 && root_of[i.result_id] != root) {
          root_of[i.result_id] = root;
          changed = true;
        }
      }
    }
    for (const Instruction& i : f.code) {
      if (!is_selection(m, i)) continue;
      for (uint32_t choice : choices(i))
        if (lookup(choice) == 0 && !is_placeholder(m, choice))
          throw ProgramError(std::string(kChosenAtRunTime) +
                             " among pointers that do not all come from variables (a pointer loaded from memory, "
                             "or cast from another type) is not supported");
    }
  }

  // The type of `variable` and, when it is an array, its element type and length id.
  struct VariableShape {
    StorageClass storage;
    uint32_t type = 0;
    uint32_t unit = 0;
    uint32_t length = 0;  // id of the array's length; 0 for a single element
    uint32_t initializer = 0;
    Function* function = nullptr;  // for Function variables
  };

  static VariableShape shape_of(Module& m, uint32_t variable) {
    VariableShape shape;
    const Instruction* v = m.find_global(variable);
    if (v == nullptr) {
      for (Function& f : m.functions)
        for (const Instruction& i : f.code)
          if (i.opcode == Op::OpVariable && i.result_id == variable) {
            v = &i;
            shape.function = &f;
          }
    }
    shape.storage = StorageClass(v->word(0));
    shape.initializer = v->words.size() > 1 ? v->word(1) : 0;
    shape.type = m.pointee_of(v->type_id);
    const Instruction* type = m.find_global(shape.type);
    if (type->opcode == Op::OpTypeArray) {
      shape.unit = type->word(0);
      shape.length = type->word(1);
    } else {
      shape.unit = shape.type;
    }
    return shape;
  }

  // A uint32 id for an array length id (a constant of any width, or a 32-bit specialization constant).
  static uint32_t length_u32(Module& m, uint32_t length) {
    if (auto value = m.constant_value(length)) return m.constant_u32(uint32_t(*value));
    return length;
  }

  static uint32_t add_u32(Module& m, uint32_t a, uint32_t b) {
    auto va = m.constant_value(a), vb = m.constant_value(b);
    if (va && vb) return m.constant_u32(uint32_t(*va + *vb));
    const uint32_t id = m.new_id();
    m.globals.push_back(std::move(Instruction(Op::OpSpecConstantOp, m.type_int(32), id)
                                      .literal(uint32_t(Op::OpIAdd))
                                      .id(a)
                                      .id(b)));
    return id;
  }

  // Declares one variable per set of roots with more than one member.
  static std::map<uint32_t, Part> merge_roots(Module& m, Roots& roots) {
    std::map<uint32_t, std::vector<uint32_t>> groups;
    std::set<uint32_t> seen;
    // Every id the union-find knows is a variable; collect them by representative.
    for (Function& f : m.functions)
      for (const Instruction& i : f.code)
        if (i.opcode == Op::OpVariable && seen.insert(i.result_id).second) groups[roots.find(i.result_id)].push_back(i.result_id);
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpVariable && seen.insert(g.result_id).second) groups[roots.find(g.result_id)].push_back(g.result_id);

    std::map<uint32_t, Part> parts;
    for (auto& group : groups) {
      // Not a structured binding: lambdas below capture it (clang 15 cannot capture bindings).
      std::vector<uint32_t>& members = group.second;
      if (members.size() < 2) continue;
      std::sort(members.begin(), members.end());
      std::vector<VariableShape> shapes;
      for (uint32_t v : members) shapes.push_back(shape_of(m, v));
      for (const VariableShape& s : shapes) {
        if (s.storage != shapes[0].storage || s.function != shapes[0].function)
          throw ProgramError(std::string(kChosenAtRunTime) +
                             " between variables of different address spaces is not supported");
        if (s.unit != shapes[0].unit)
          throw ProgramError(std::string(kChosenAtRunTime) + " between variables of different types ('" +
                             m.name_of(members.front()) + "' and '" + m.name_of(members[&s - shapes.data()]) +
                             "') is not supported");
      }
      const bool initialized = std::ranges::any_of(shapes, [](const VariableShape& s) { return s.initializer != 0; });
      // Offsets and the total length, in uint32.
      uint32_t total = m.constant_u32(0);
      std::vector<uint32_t> offsets;
      for (const VariableShape& s : shapes) {
        offsets.push_back(total);
        total = add_u32(m, total, s.length ? length_u32(m, s.length) : m.constant_u32(1));
      }
      const uint32_t array = m.new_id();
      m.globals.push_back(std::move(Instruction(Op::OpTypeArray, 0, array).id(shapes[0].unit).id(total)));
      const uint32_t initializer = initialized ? merged_initializer(m, shapes, array, total) : 0;
      std::vector<uint32_t> pointer_types;
      for (uint32_t v : members) pointer_types.push_back(variable_pointer_type(m, v));
      const uint32_t pointer = m.type_pointer(shapes[0].storage, array);
      const uint32_t merged = m.new_id();
      Instruction variable(Op::OpVariable, pointer, merged);
      variable.literal(uint32_t(shapes[0].storage));
      if (initializer) variable.id(initializer);
      std::string name;
      for (uint32_t v : members) name += (name.empty() ? "" : "+") + m.name_of(v);
      if (!name.empty()) m.debug.push_back(std::move(Instruction(Op::OpName, 0, 0).id(merged).string(name)));
      if (shapes[0].function) {
        Function& f = *shapes[0].function;
        auto first = std::find_if(f.code.begin(), f.code.end(), [](const Instruction& i) { return i.opcode == Op::OpLabel; });
        f.code.insert(first + 1, std::move(variable));
        std::erase_if(f.code, [&](const Instruction& i) {
          return i.opcode == Op::OpVariable && std::ranges::count(members, i.result_id);
        });
      } else {
        m.globals.push_back(std::move(variable));
        std::erase_if(m.globals, [&](const Instruction& g) {
          return g.opcode == Op::OpVariable && std::ranges::count(members, g.result_id);
        });
      }
      std::erase_if(m.debug, [&](const Instruction& d) { return d.words.size() && std::ranges::count(members, d.word(0)); });
      std::erase_if(m.annotations,
                    [&](const Instruction& d) { return d.words.size() && std::ranges::count(members, d.word(0)); });
      for (size_t k = 0; k < members.size(); ++k)
        parts[members[k]] = Part{merged, offsets[k], shapes[k].length != 0, pointer_types[k]};
    }
    return parts;
  }

  // The initializer of a merged variable: every member's elements in order
  // (members without one contribute null elements).
  static uint32_t variable_pointer_type(const Module& m, uint32_t variable) {
    if (const Instruction* g = m.find_global(variable)) return g->type_id;
    for (const Function& f : m.functions)
      for (const Instruction& i : f.code)
        if (i.opcode == Op::OpVariable && i.result_id == variable) return i.type_id;
    return 0;
  }

  static uint32_t merged_initializer(Module& m, const std::vector<VariableShape>& shapes, uint32_t array,
                                     uint32_t total) {
    if (!m.constant_value(total))
      throw ProgramError(std::string(kChosenAtRunTime) + " between initialized variables of run-time size");
    uint32_t null_unit = 0;
    auto null_element = [&] {
      if (!null_unit) {
        null_unit = m.new_id();
        m.globals.push_back(Instruction(Op::OpConstantNull, shapes[0].unit, null_unit));
      }
      return null_unit;
    };
    std::vector<uint32_t> elements;
    for (const VariableShape& s : shapes) {
      const uint32_t count = s.length ? uint32_t(*m.constant_value(s.length)) : 1;
      const Instruction* init = s.initializer ? m.find_global(s.initializer) : nullptr;
      const std::vector<uint32_t> parts =
          init && init->opcode == Op::OpConstantComposite ? init->words : std::vector<uint32_t>{};
      for (uint32_t e = 0; e < count; ++e) {
        if (!s.length) elements.push_back(s.initializer ? s.initializer : null_element());
        else if (e < parts.size()) elements.push_back(parts[e]);
        else elements.push_back(null_element());
      }
    }
    const uint32_t id = m.new_id();
    Instruction c(Op::OpConstantComposite, array, id);
    for (uint32_t e : elements) c.id(e);
    m.globals.push_back(std::move(c));
    return id;
  }

  // Rewrites every use of a merged variable in `f`: access chains on it
  // index the merged variable; other uses of a single-element variable get a
  // pointer to its element.
  static void move_uses_to_merged(Module& m, Function& f, const std::map<uint32_t, Part>& parts) {
    ValueTypes types = value_types(m, f);
    std::unordered_map<uint32_t, uint32_t> element_pointer;  // variable → pointer made at the entry
    std::vector<Instruction> entry_code;
    std::vector<Instruction> code;
    code.reserve(f.code.size());
    for (Instruction& i : f.code) {
      if (is_chain(i.opcode)) {
        if (auto part = parts.find(i.word(0)); part != parts.end()) {
          i = chain_on_merged(m, i, part->first, part->second, types, code);
          code.push_back(std::move(i));
          continue;
        }
      }
      for (size_t w = 0; w < i.words.size(); ++w) {
        if (!i.is_id[w]) continue;
        auto part = parts.find(i.words[w]);
        if (part == parts.end()) continue;
        if (part->second.is_array && is_selection(m, i)) continue;  // a view: rewrite_selections
        if (part->second.is_array)
          throw ProgramError(std::string(kChosenAtRunTime) + " into the array '" + m.name_of(part->first) +
                             "', which is also used as a whole, is not supported");
        auto [it, inserted] = element_pointer.try_emplace(part->first, 0);
        if (inserted) {
          it->second = m.new_id();
          entry_code.push_back(std::move(Instruction(Op::OpAccessChain, part->second.pointer_type, it->second)
                                             .id(part->second.merged)
                                             .id(part->second.offset)));
        }
        i.words[w] = it->second;
      }
      code.push_back(std::move(i));
    }
    f.code = std::move(code);
    if (!entry_code.empty())
      f.code.insert(f.code.begin() + ptrdiff_t(entry_insertion_point(f)), entry_code.begin(), entry_code.end());
  }

  static Instruction chain_on_merged(Module& m, const Instruction& chain, uint32_t variable, const Part& part,
                                     ValueTypes& types, std::vector<Instruction>& code) {
    const bool element = has_element(chain.opcode);
    std::vector<uint32_t> tail(chain.words.begin() + 1 + (element ? 1 : 0), chain.words.end());
    if (element && m.constant_value(chain.word(1)) != 0u)
      throw ProgramError("pointer arithmetic past a whole __local or __private variable is not supported");
    std::vector<uint32_t> indices;
    if (part.is_array) {
      if (tail.empty())
        throw ProgramError(std::string(kChosenAtRunTime) + " into the array '" + m.name_of(variable) +
                           "', which is also used as a whole, is not supported");
      indices.push_back(add_offset(m, part.offset, tail.front(), types, code));
      indices.insert(indices.end(), tail.begin() + 1, tail.end());
    } else {
      indices.push_back(part.offset);
      indices.insert(indices.end(), tail.begin(), tail.end());
    }
    Instruction folded(Op::OpAccessChain, chain.type_id, chain.result_id);
    folded.id(part.merged);
    for (uint32_t index : indices) folded.id(index);
    return folded;
  }

  // offset + index in the index's type.
  static uint32_t add_offset(Module& m, uint32_t offset, uint32_t index, ValueTypes& types, std::vector<Instruction>& code) {
    const uint32_t type = types.at(index);
    const auto value = m.constant_value(offset);
    if (value == 0u) return index;
    uint32_t typed = offset;
    if (value) {
      typed = m.constant_int(type, *value);
    } else if (type != m.type_int(32)) {
      typed = m.new_id();
      code.push_back(std::move(Instruction(Op::OpUConvert, type, typed).id(offset)));
    }
    types[typed] = type;
    const uint32_t sum = m.new_id();
    code.push_back(std::move(Instruction(Op::OpIAdd, type, sum).id(typed).id(index)));
    types[sum] = type;
    return sum;
  }

  // ---------------------------------------------------------------------------
  // Phis and selects of pointers become phis and selects of indices.

  static void rewrite_selections(Module& m, Function& f, const std::map<uint32_t, Part>& parts) {
    ValueTypes types = value_types(m, f);
    std::unordered_map<uint32_t, Path> paths;
    auto path_of = [&](uint32_t id) -> const Path* {
      if (auto it = paths.find(id); it != paths.end()) return &it->second;
      if (is_variable(m, f, id)) return &(paths[id] = Path{id, {}});
      if (auto part = parts.find(id); part != parts.end() && part->second.is_array)
        return &(paths[id] = Path{part->second.merged, {part->second.offset}, true});
      return nullptr;
    };
    // The shape of every pointer first (root, number of indices, view, and
    // the constant indices): a phi may come before all of its choices.
    std::unordered_map<uint32_t, Path> shapes;
    auto shape_of = [&](uint32_t id) -> const Path* {
      if (auto it = shapes.find(id); it != shapes.end()) return &it->second;
      if (const Path* p = path_of(id)) return p;
      return nullptr;
    };
    for (bool changed = true; changed;) {
      changed = false;
      for (const Instruction& i : f.code) {
        if (!i.result_id || shapes.count(i.result_id)) continue;
        const Path* shape = nullptr;
        if (is_chain(i.opcode) || i.opcode == Op::OpCopyObject) {
          if (const Path* base = shape_of(i.word(0))) {
            shapes[i.result_id] = i.opcode == Op::OpCopyObject ? *base : extend_shape(m, *base, i);
            changed = true;
          }
          continue;
        }
        if (!is_selection(m, i)) continue;
        for (uint32_t choice : choices(i))
          if ((shape = shape_of(choice))) break;
        if (shape) {
          shapes[i.result_id] = *shape;
          changed = true;
        }
      }
    }
    const uint32_t index_type = m.type_int(32);  // of index phis and selects

    // Pointer phis: the index phis made for them, filled once every path is known.
    struct PendingPhi {
      uint32_t pointer = 0;
      std::vector<uint32_t> index_phis;      // 0 where the index is one constant (a struct member)
      std::vector<uint32_t> index_types;
      std::vector<size_t> positions;          // where each index phi is in `code`
      Instruction original;
    };
    std::vector<PendingPhi> pending;

    std::vector<Instruction> code;
    code.reserve(f.code.size() * 2);
    std::vector<Instruction> after_phis;  // chains rebuilding the pointers of this block's phis
    for (Instruction& i : f.code) {
      if (!after_phis.empty() && i.opcode != Op::OpPhi) {
        code.insert(code.end(), after_phis.begin(), after_phis.end());
        after_phis.clear();
      }
      if (is_chain(i.opcode)) {
        if (const Path* base = path_of(i.word(0))) {
          Path path = extend(m, *base, i, types, code);
          if (path.view) {  // still the whole array: no pointer of its own
            paths[i.result_id] = std::move(path);
            continue;
          }
          Instruction folded(Op::OpAccessChain, i.type_id, i.result_id);
          folded.id(path.root);
          for (uint32_t index : path.indices) folded.id(index);
          paths[i.result_id] = std::move(path);
          code.push_back(std::move(folded));
          continue;
        }
      }
      if (i.opcode == Op::OpCopyObject && path_of(i.word(0))) paths[i.result_id] = *path_of(i.word(0));
      if (!is_selection(m, i)) {
        code.push_back(std::move(i));
        continue;
      }
      const uint32_t result = i.result_id;
      auto found = shapes.find(result);
      if (found == shapes.end())
        throw CompileError(std::string("internal error: ") + kChosenAtRunTime + " without a known choice");
      const Path* known = &found->second;
      Path path{known->root, {}, known->view};
      for (uint32_t choice : choices(i))
        if (const Path* p = shape_of(choice); p && p->view != known->view)
          throw ProgramError(std::string(kChosenAtRunTime) +
                             " between whole arrays and their elements is not supported");
      const std::vector<uint32_t> struct_positions = struct_index_positions(m, known->root, known->indices);
      if (i.opcode == Op::OpSelect) {
        const Path* a = path_of(i.word(1));
        const Path* b = path_of(i.word(2));
        for (size_t j = 0; j < known->indices.size(); ++j) {
          const uint32_t type = index_type;
          const uint32_t x = a ? index_at(m, f, *a, *known, j, type, types, code) : undefined(m, type);
          const uint32_t y = b ? index_at(m, f, *b, *known, j, type, types, code) : undefined(m, type);
          if (x == y) {
            path.indices.push_back(x);
          } else if (std::ranges::count(struct_positions, j)) {
            throw_struct_members();
          } else {
            const uint32_t selected = m.new_id();
            code.push_back(std::move(Instruction(Op::OpSelect, type, selected).id(i.word(0)).id(x).id(y)));
            types[selected] = type;
            path.indices.push_back(selected);
          }
        }
        if (!path.view) {
          Instruction rebuilt(Op::OpAccessChain, i.type_id, i.result_id);
          rebuilt.id(path.root);
          for (uint32_t index : path.indices) rebuilt.id(index);
          code.push_back(std::move(rebuilt));
        }
      } else {
        PendingPhi phi;
        phi.pointer = i.result_id;
        for (size_t j = 0; j < known->indices.size(); ++j) {
          const uint32_t type = index_type;
          phi.index_types.push_back(type);
          if (std::ranges::count(struct_positions, j)) {
            phi.index_phis.push_back(0);
            phi.positions.push_back(0);
            path.indices.push_back(known->indices[j]);
            continue;
          }
          const uint32_t id = m.new_id();
          types[id] = type;
          phi.index_phis.push_back(id);
          phi.positions.push_back(code.size());
          code.push_back(Instruction(Op::OpPhi, type, id));
          path.indices.push_back(id);
        }
        if (!path.view) {
          Instruction rebuilt(Op::OpAccessChain, i.type_id, i.result_id);
          rebuilt.id(path.root);
          for (uint32_t index : path.indices) rebuilt.id(index);
          after_phis.push_back(std::move(rebuilt));
        }
        phi.original = std::move(i);
        pending.push_back(std::move(phi));
      }
      paths[result] = std::move(path);
    }
    if (!after_phis.empty()) code.insert(code.end(), after_phis.begin(), after_phis.end());

    // Incoming indices; conversions go at the end of the incoming block.
    std::map<uint32_t, std::vector<Instruction>> block_tails;  // block → instructions before its terminator
    for (PendingPhi& phi : pending) {
      const Instruction& original = phi.original;
      for (size_t w = 0; w + 1 < original.words.size(); w += 2) {
        const uint32_t value = original.word(w), from = original.word(w + 1);
        const Path* incoming = path_of(value);
        const Path& own = paths.at(phi.pointer);
        if (incoming && incoming->root != own.root)
          throw CompileError(std::string("internal error: ") + kChosenAtRunTime + " with unmerged roots");
        if (incoming && incoming->indices.size() != phi.index_phis.size())
          throw ProgramError(std::string(kChosenAtRunTime) +
                             " between pointers to different levels of an aggregate is not supported");
        for (size_t j = 0; j < phi.index_phis.size(); ++j) {
          const uint32_t type = phi.index_types[j];
          if (phi.index_phis[j] == 0) {
            if (incoming && incoming->indices[j] != own.indices[j]) throw_struct_members();
            continue;
          }
          uint32_t index = undefined(m, type);
          if (incoming) index = convert(m, incoming->indices[j], type, types, block_tails[from]);
          code[phi.positions[j]].id(index).id(from);
        }
      }
    }
    if (!block_tails.empty()) {
      std::vector<Instruction> placed;
      placed.reserve(code.size() + 8);
      uint32_t current = 0;
      for (size_t k = 0; k < code.size(); ++k) {
        if (code[k].opcode == Op::OpLabel) current = code[k].result_id;
        if (is_terminator(code[k].opcode)) {
          if (auto tail = block_tails.find(current); tail != block_tails.end())
            placed.insert(placed.end(), tail->second.begin(), tail->second.end());
        }
        placed.push_back(std::move(code[k]));
      }
      code = std::move(placed);
    }
    // A view has no pointer: anything but an access chain on it is unsupported.
    for (const Instruction& i : code)
      for (size_t w = 0; w < i.words.size(); ++w)
        if (i.is_id[w] && !(is_chain(i.opcode) && w == 0))
          if (auto it = paths.find(i.words[w]); it != paths.end() && it->second.view)
            throw ProgramError(std::string(kChosenAtRunTime) +
                               " between whole arrays, used other than to index them, is not supported");
    f.code = std::move(code);
  }

  [[noreturn]] static void throw_struct_members() {
    throw ProgramError(std::string(kChosenAtRunTime) +
                       " between different members of a struct is not supported");
  }

  static bool is_terminator(Op op) {
    return op == Op::OpBranch || op == Op::OpBranchConditional || op == Op::OpSwitch || op == Op::OpReturn ||
           op == Op::OpReturnValue || op == Op::OpKill || op == Op::OpUnreachable;
  }

  // Positions of `indices` (from `root`) that select a struct member.
  static std::vector<uint32_t> struct_index_positions(const Module& m, uint32_t root,
                                                      const std::vector<uint32_t>& indices) {
    std::vector<uint32_t> positions;
    uint32_t type = m.pointee_of(variable_pointer_type(m, root));
    for (uint32_t j = 0; j < indices.size() && type; ++j) {
      const Instruction* t = m.find_global(type);
      if (t == nullptr) break;
      if (t->opcode == Op::OpTypeStruct) {
        positions.push_back(j);
        auto member = m.constant_value(indices[j]);
        type = member && *member < t->words.size() ? t->word(size_t(*member)) : 0;
      } else {
        type = t->opcode == Op::OpTypeArray || t->opcode == Op::OpTypeVector ? t->word(0) : 0;
      }
    }
    return positions;
  }

  // Index `j` of `path` as a value of `type` (converted in `code` when needed).
  static uint32_t index_at(Module& m, const Function&, const Path& path, const Path& known, size_t j, uint32_t type,
                           ValueTypes& types, std::vector<Instruction>& code) {
    if (path.root != known.root) throw CompileError(std::string("internal error: ") + kChosenAtRunTime + " with unmerged roots");
    if (path.indices.size() != known.indices.size())
      throw ProgramError(std::string(kChosenAtRunTime) +
                         " between pointers to different levels of an aggregate is not supported");
    return convert(m, path.indices[j], type, types, code);
  }

  static uint32_t convert(Module& m, uint32_t index, uint32_t type, ValueTypes& types, std::vector<Instruction>& code) {
    const uint32_t from = types.at(index);
    if (from == type) return index;
    if (auto value = m.constant_value(index)) {
      const uint32_t constant = m.constant_int(type, *value);
      types[constant] = type;
      return constant;
    }
    const uint32_t converted = m.new_id();
    code.push_back(std::move(Instruction(Op::OpUConvert, type, converted).id(index)));
    types[converted] = type;
    return converted;
  }

  static uint32_t undefined(Module& m, uint32_t type) {
    for (const Instruction& g : m.globals)
      if (g.opcode == Op::OpUndef && g.type_id == type) return g.result_id;
    const uint32_t id = m.new_id();
    m.globals.push_back(Instruction(Op::OpUndef, type, id));
    return id;
  }

  // The shape of `chain` on a pointer of shape `base`: like extend, with 0
  // for indices known only at run time.
  static Path extend_shape(const Module& m, const Path& base, const Instruction& chain) {
    Path shape = base;
    auto tail = chain.words.begin() + (has_element(chain.opcode) ? 2 : 1);
    if (has_element(chain.opcode) && m.constant_value(chain.word(1)) != 0u && !shape.indices.empty())
      shape.indices.back() = 0;
    if (shape.view && tail != chain.words.end()) {
      shape.indices.back() = 0;
      ++tail;
      shape.view = false;
    }
    shape.indices.insert(shape.indices.end(), tail, chain.words.end());
    return shape;
  }

  // `base` extended by access chain `chain` (its element added to the last index).
  static Path extend(Module& m, const Path& base, const Instruction& chain, ValueTypes& types,
                     std::vector<Instruction>& code) {
    Path path = base;
    size_t first_tail = 1;
    if (has_element(chain.opcode)) {
      first_tail = 2;
      const uint32_t element = chain.word(1);
      if (base.view && m.constant_value(element) != 0u)
        throw ProgramError("pointer arithmetic past a whole __local or __private variable is not supported");
      if (m.constant_value(element) != 0u) {
        if (path.indices.empty())
          throw ProgramError("pointer arithmetic past a whole __local or __private variable is not supported");
        const uint32_t last = path.indices.back();
        const uint32_t type = types.at(last);
        const uint32_t sum = m.new_id();
        code.push_back(std::move(Instruction(Op::OpIAdd, type, sum).id(last).id(convert(m, element, type, types, code))));
        types[sum] = type;
        path.indices.back() = sum;
      }
    }
    auto tail = chain.words.begin() + ptrdiff_t(first_tail);
    if (base.view && tail != chain.words.end()) {
      // The first index picks the element: it moves the view's offset.
      const uint32_t index = *tail++;
      const uint32_t type = types.at(index);
      const uint32_t sum = m.new_id();
      code.push_back(
          std::move(Instruction(Op::OpIAdd, type, sum).id(convert(m, path.indices.back(), type, types, code)).id(index)));
      types[sum] = type;
      path.indices.back() = sum;
      path.view = false;
    }
    path.indices.insert(path.indices.end(), tail, chain.words.end());
    return path;
  }
};

}  // namespace

std::unique_ptr<Pass> make_lower_pointer_selection() { return std::make_unique<LowerPointerSelection>(); }

}  // namespace vkcl::spirv
