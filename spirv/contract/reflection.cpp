#include "reflection.h"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <stdexcept>

namespace vkcl {
namespace {

constexpr std::string_view kHeader = "vkcl-reflection 1";

constexpr std::pair<ArgKind, std::string_view> kArgKindNames[] = {
    {ArgKind::GlobalPointer, "global_pointer"},
    {ArgKind::ConstantPointer, "constant_pointer"},
    {ArgKind::LocalPointer, "local_pointer"},
    {ArgKind::Scalar, "scalar"},
};

constexpr std::pair<ArgAccess, std::string_view> kArgAccessNames[] = {
    {ArgAccess::None, "none"},
    {ArgAccess::ReadOnly, "read_only"},
    {ArgAccess::WriteOnly, "write_only"},
    {ArgAccess::ReadWrite, "read_write"},
};

constexpr std::pair<ArgTypeQualifier, std::string_view> kTypeQualifierNames[] = {
    {kArgTypeConst, "const"},
    {kArgTypeRestrict, "restrict"},
    {kArgTypeVolatile, "volatile"},
    {kArgTypePipe, "pipe"},
};

constexpr std::pair<NDRangeField, std::string_view> kNDRangeFieldNames[] = {
    {NDRangeField::GlobalOffset, "global_offset"},
    {NDRangeField::GlobalSize, "global_size"},
    {NDRangeField::EnqueuedLocalSize, "enqueued_local_size"},
    {NDRangeField::NumGroups, "num_groups"},
    {NDRangeField::GroupOffset, "group_offset"},
    {NDRangeField::WorkDim, "work_dim"},
    {NDRangeField::GlobalIdBase, "global_id_base"},
};

// Feature names as they appear in the file, with the member each one sets.
constexpr std::pair<std::string_view, bool ModuleFeatures::*> kFeatureNames[] = {
    {"buffer_device_address", &ModuleFeatures::buffer_device_address},
    {"vulkan_memory_model", &ModuleFeatures::vulkan_memory_model},
    {"vulkan_memory_model_device_scope", &ModuleFeatures::vulkan_memory_model_device_scope},
    {"shader_int64", &ModuleFeatures::shader_int64},
    {"shader_int8", &ModuleFeatures::shader_int8},
    {"shader_int16", &ModuleFeatures::shader_int16},
    {"shader_float64", &ModuleFeatures::shader_float64},
    {"shader_float16", &ModuleFeatures::shader_float16},
    {"storage_buffer_8bit", &ModuleFeatures::storage_buffer_8bit},
    {"storage_buffer_16bit", &ModuleFeatures::storage_buffer_16bit},
    {"variable_pointers", &ModuleFeatures::variable_pointers},
    {"subgroup_basic", &ModuleFeatures::subgroup_basic},
    {"subgroup_vote", &ModuleFeatures::subgroup_vote},
    {"subgroup_arithmetic", &ModuleFeatures::subgroup_arithmetic},
    {"subgroup_ballot", &ModuleFeatures::subgroup_ballot},
    {"subgroup_shuffle", &ModuleFeatures::subgroup_shuffle},
    {"subgroup_shuffle_relative", &ModuleFeatures::subgroup_shuffle_relative},
    {"subgroup_clustered", &ModuleFeatures::subgroup_clustered},
    {"subgroup_extended_types", &ModuleFeatures::subgroup_extended_types},
    {"shader_buffer_int64_atomics", &ModuleFeatures::shader_buffer_int64_atomics},
    {"shader_shared_int64_atomics", &ModuleFeatures::shader_shared_int64_atomics},
    {"shader_shared_float32_atomics", &ModuleFeatures::shader_shared_float32_atomics},
    {"shader_shared_float64_atomics", &ModuleFeatures::shader_shared_float64_atomics},
    {"denorm_preserve_float16", &ModuleFeatures::denorm_preserve_float16},
    {"denorm_preserve_float32", &ModuleFeatures::denorm_preserve_float32},
    {"denorm_preserve_float64", &ModuleFeatures::denorm_preserve_float64},
    {"signed_zero_inf_nan_preserve_float16", &ModuleFeatures::signed_zero_inf_nan_preserve_float16},
    {"signed_zero_inf_nan_preserve_float32", &ModuleFeatures::signed_zero_inf_nan_preserve_float32},
    {"signed_zero_inf_nan_preserve_float64", &ModuleFeatures::signed_zero_inf_nan_preserve_float64},
    {"push_descriptor", &ModuleFeatures::push_descriptor},
};

template <typename Enum, size_t N>
std::string_view name_of(const std::pair<Enum, std::string_view> (&table)[N], Enum value) {
  for (const auto& [e, name] : table)
    if (e == value) return name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> value_of(const std::pair<Enum, std::string_view> (&table)[N], std::string_view name) {
  for (const auto& [e, n] : table)
    if (n == name) return e;
  return std::nullopt;
}

// "const,restrict", or "-" for none.
std::string qualifier_list(uint32_t qualifiers) {
  std::string list;
  for (const auto& [bit, name] : kTypeQualifierNames)
    if (qualifiers & bit) list += (list.empty() ? "" : ",") + std::string(name);
  return list.empty() ? "-" : list;
}

class LineParser {
 public:
  LineParser(std::string_view line, size_t line_number) : line_(line), line_number_(line_number) {
    std::istringstream stream{std::string(line)};
    for (std::string word; stream >> word;) words_.push_back(word);
  }
  [[noreturn]] void fail(std::string_view what) const {
    throw std::runtime_error("reflection line " + std::to_string(line_number_) + ": " + std::string(what));
  }
  size_t size() const { return words_.size(); }
  const std::string& word(size_t i) const {
    if (i >= words_.size()) fail("expected more fields");
    return words_[i];
  }
  uint32_t number(size_t i) const {
    const std::string& w = word(i);
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), value);
    if (ec != std::errc() || end != w.data() + w.size()) fail("'" + w + "' is not an unsigned 32-bit number");
    return value;
  }
  void expect_fields(size_t n) const {
    if (words_.size() != n) fail("expected " + std::to_string(n) + " fields, got " + std::to_string(words_.size()));
  }
  // The line from its word `i` to its end, spaces inside kept (a type name,
  // the attributes).
  std::string rest(size_t i) const {
    if (i >= words_.size()) fail("expected more fields");
    std::string_view text = line_;
    for (size_t w = 0; w <= i; ++w) {
      text.remove_prefix(std::min(text.find_first_not_of(" \t"), text.size()));
      if (w < i) text.remove_prefix(std::min(text.find_first_of(" \t"), text.size()));
    }
    text.remove_suffix(text.size() - (text.find_last_not_of(" \t\r") + 1));
    return std::string(text);
  }
  uint32_t qualifiers(size_t i) const {
    const std::string& w = word(i);
    if (w == "-") return 0;
    uint32_t bits = 0;
    std::string_view list = w;
    while (!list.empty()) {
      const std::string_view name = list.substr(0, list.find(','));
      list.remove_prefix(std::min(name.size() + 1, list.size()));
      auto bit = value_of(kTypeQualifierNames, name);
      if (!bit) fail("unknown type qualifier '" + std::string(name) + "'");
      bits |= *bit;
    }
    return bits;
  }

 private:
  std::string_view line_;
  std::vector<std::string> words_;
  size_t line_number_;
};

}  // namespace

std::string_view to_string(ArgKind kind) { return name_of(kArgKindNames, kind); }
std::string_view to_string(ArgAccess access) { return name_of(kArgAccessNames, access); }
std::string_view to_string(NDRangeField field) { return name_of(kNDRangeFieldNames, field); }

const KernelArg* KernelReflection::find_arg(std::string_view arg_name) const {
  auto it = std::find_if(args.begin(), args.end(), [&](const KernelArg& a) { return a.name == arg_name; });
  return it == args.end() ? nullptr : &*it;
}

std::optional<uint32_t> KernelReflection::ndrange_offset(NDRangeField field) const {
  for (const NDRangeSlot& slot : ndrange)
    if (slot.field == field) return slot.offset;
  return std::nullopt;
}

const KernelReflection* ModuleReflection::find_kernel(std::string_view kernel_name) const {
  auto it = std::find_if(kernels.begin(), kernels.end(), [&](const KernelReflection& k) { return k.name == kernel_name; });
  return it == kernels.end() ? nullptr : &*it;
}

std::vector<std::string_view> missing_features(const ModuleFeatures& needed, const ModuleFeatures& available) {
  std::vector<std::string_view> missing;
  for (const auto& [name, member] : kFeatureNames)
    if (needed.*member && !(available.*member)) missing.push_back(name);
  return missing;
}

ModuleFeatures without(ModuleFeatures features, const ModuleFeatures& removed) {
  for (const auto& [name, member] : kFeatureNames)
    if (removed.*member) features.*member = false;
  return features;
}

std::string serialize(const ModuleReflection& reflection) {
  std::ostringstream out;
  out << kHeader << '\n';
  for (const auto& [name, member] : kFeatureNames)
    if (reflection.features.*member) out << "feature " << name << '\n';
  if (reflection.denorms_are_zero) out << "denorms_are_zero\n";
  for (const KernelReflection& k : reflection.kernels) {
    out << "kernel " << k.name << '\n';
    out << "push_constant_size " << k.push_constant_size << '\n';
    if (k.argument_buffer) out << "argument_buffer " << k.argument_buffer->offset << ' ' << k.argument_buffer->size << '\n';
    out << "reqd_work_group_size " << k.required_work_group_size[0] << ' ' << k.required_work_group_size[1] << ' '
        << k.required_work_group_size[2] << '\n';
    out << "static_local_memory " << k.static_local_memory << '\n';
    if (k.required_sub_group_size) out << "reqd_sub_group_size " << k.required_sub_group_size << '\n';
    for (const NDRangeSlot& slot : k.ndrange) out << "ndrange " << to_string(slot.field) << ' ' << slot.offset << '\n';
    for (const KernelArg& a : k.args) {
      out << "arg " << a.index << ' ' << (a.name.empty() ? "-" : a.name) << ' ' << to_string(a.kind) << ' ';
      if (a.kind == ArgKind::LocalPointer)
        out << a.spec_id << ' ' << a.element_size << '\n';
      else if (a.binding)
        out << "storage_buffer " << *a.binding << '\n';
      else
        out << a.offset << ' ' << a.size << '\n';
    }
    for (const KernelArg& a : k.args) {
      if (a.type_name.empty()) continue;
      out << "arg_type " << a.index << ' ' << to_string(a.access) << ' ' << qualifier_list(a.type_qualifiers) << ' '
          << a.type_name << '\n';
    }
    if (!k.attributes.empty()) out << "attributes " << k.attributes << '\n';
    out << "end\n";
  }
  return out.str();
}

ModuleReflection parse_reflection(std::string_view text) {
  ModuleReflection result;
  KernelReflection* kernel = nullptr;
  size_t line_number = 0;
  bool saw_header = false;
  while (!text.empty()) {
    size_t eol = text.find('\n');
    std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view{} : text.substr(eol + 1);
    ++line_number;
    LineParser p(line, line_number);
    if (p.size() == 0) continue;
    if (!saw_header) {
      if (line != kHeader) p.fail("expected '" + std::string(kHeader) + "'");
      saw_header = true;
      continue;
    }
    const std::string& key = p.word(0);
    if (key == "feature") {
      p.expect_fields(2);
      auto it = std::find_if(std::begin(kFeatureNames), std::end(kFeatureNames),
                             [&](const auto& f) { return f.first == p.word(1); });
      if (it == std::end(kFeatureNames)) p.fail("unknown feature '" + p.word(1) + "'");
      result.features.*(it->second) = true;
    } else if (key == "denorms_are_zero") {
      p.expect_fields(1);
      if (kernel) p.fail("'denorms_are_zero' inside a kernel (it is about the whole module)");
      result.denorms_are_zero = true;
    } else if (key == "kernel") {
      p.expect_fields(2);
      if (kernel) p.fail("'kernel' before the previous kernel's 'end'");
      kernel = &result.kernels.emplace_back();
      kernel->name = p.word(1);
    } else if (!kernel) {
      p.fail("'" + key + "' outside a kernel");
    } else if (key == "end") {
      p.expect_fields(1);
      kernel = nullptr;
    } else if (key == "push_constant_size") {
      p.expect_fields(2);
      kernel->push_constant_size = p.number(1);
    } else if (key == "argument_buffer") {
      p.expect_fields(3);
      if (kernel->argument_buffer) p.fail("a second 'argument_buffer' line");
      kernel->argument_buffer = ArgumentBufferSlot{p.number(1), p.number(2)};
      if (kernel->argument_buffer->size == 0) p.fail("argument_buffer size must not be 0 (leave the line out)");
    } else if (key == "reqd_work_group_size") {
      p.expect_fields(4);
      kernel->required_work_group_size = {p.number(1), p.number(2), p.number(3)};
    } else if (key == "static_local_memory") {
      p.expect_fields(2);
      kernel->static_local_memory = p.number(1);
    } else if (key == "reqd_sub_group_size") {
      p.expect_fields(2);
      kernel->required_sub_group_size = p.number(1);
      if (kernel->required_sub_group_size == 0) p.fail("reqd_sub_group_size must not be 0 (leave the line out)");
    } else if (key == "ndrange") {
      p.expect_fields(3);
      auto field = value_of(kNDRangeFieldNames, p.word(1));
      if (!field) p.fail("unknown ndrange field '" + p.word(1) + "'");
      kernel->ndrange.push_back({*field, p.number(2)});
    } else if (key == "arg") {
      p.expect_fields(6);
      KernelArg& arg = kernel->args.emplace_back();
      arg.index = p.number(1);
      if (arg.index != kernel->args.size() - 1) p.fail("arguments must be listed in order");
      arg.name = p.word(2) == "-" ? "" : p.word(2);
      auto kind = value_of(kArgKindNames, p.word(3));
      if (!kind) p.fail("unknown argument kind '" + p.word(3) + "'");
      arg.kind = *kind;
      if (arg.kind == ArgKind::LocalPointer) {
        arg.spec_id = p.number(4);
        arg.element_size = p.number(5);
        if (arg.element_size == 0) p.fail("local_pointer element size must not be 0");
      } else if (p.word(4) == "storage_buffer") {
        if (arg.kind != ArgKind::GlobalPointer && arg.kind != ArgKind::ConstantPointer)
          p.fail("only global and constant pointers can be storage buffers");
        arg.binding = p.number(5);
      } else {
        arg.offset = p.number(4);
        arg.size = p.number(5);
      }
    } else if (key == "arg_type") {
      if (p.size() < 5) p.fail("expected at least 5 fields, got " + std::to_string(p.size()));
      const uint32_t index = p.number(1);
      if (index >= kernel->args.size()) p.fail("'arg_type' of an argument not listed before it");
      KernelArg& arg = kernel->args[index];
      auto access = value_of(kArgAccessNames, p.word(2));
      if (!access) p.fail("unknown access qualifier '" + p.word(2) + "'");
      arg.access = *access;
      arg.type_qualifiers = p.qualifiers(3);
      arg.type_name = p.rest(4);
    } else if (key == "attributes") {
      if (p.size() < 2) p.fail("expected the attributes");
      kernel->attributes = p.rest(1);
    } else {
      p.fail("unknown record '" + key + "'");
    }
  }
  if (!saw_header) throw std::runtime_error("reflection: empty file, expected '" + std::string(kHeader) + "'");
  if (kernel) throw std::runtime_error("reflection: kernel '" + kernel->name + "' has no 'end'");
  return result;
}

}  // namespace vkcl
