// bound_work_item_dimensions (tools/clc), on LLVM IR: a constant dimension
// index above 2 gives the function's constant, a variable one a select
// guarding the call, and indices 0..2 leave the call alone.
#include <gtest/gtest.h>

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>

#include "bound_work_item_dimensions.h"
#include "llvm_ir.h"

namespace vkcl {
namespace {

constexpr const char* kWorkItemCalls = R"IR(
declare i64 @_Z15get_global_sizej(i32)
declare i64 @_Z13get_global_idj(i32)
declare i64 @_Z14get_num_groupsj(i32)
declare i64 @_Z17get_global_offsetj(i32)

define i64 @size_beyond() {
  %s = call i64 @_Z15get_global_sizej(i32 3)
  ret i64 %s
}

define i64 @id_beyond() {
  %s = call i64 @_Z13get_global_idj(i32 7)
  ret i64 %s
}

define i64 @groups_in_range() {
  %s = call i64 @_Z14get_num_groupsj(i32 2)
  ret i64 %s
}

define i64 @offset_variable(i32 %d) {
  %s = call i64 @_Z17get_global_offsetj(i32 %d)
  %t = add i64 %s, 5
  ret i64 %t
}

define i64 @size_variable(i32 %d) {
  %s = call i64 @_Z15get_global_sizej(i32 %d)
  ret i64 %s
}
)IR";

// The value `name` returns.
const llvm::Value* returned(const llvm::Module& module, const char* name) {
  const llvm::Function* f = module.getFunction(name);
  const auto* ret = llvm::cast<llvm::ReturnInst>(f->getEntryBlock().getTerminator());
  return ret->getReturnValue();
}

TEST(BoundWorkItemDimensions, ConstantsBeyondTwoVariablesSelectAndInRangeStays) {
  llvm::LLVMContext context;
  context.setOpaquePointers(false);  // as clc's modules
  std::unique_ptr<llvm::Module> module = testing::parse_ir(kWorkItemCalls, context);
  ASSERT_NE(module, nullptr);
  bound_work_item_dimensions(*module);
  ASSERT_EQ(testing::verify_ir(*module), "") << testing::print_ir(*module);

  const auto* size = llvm::dyn_cast<llvm::ConstantInt>(returned(*module, "size_beyond"));
  ASSERT_NE(size, nullptr) << testing::print_ir(*module);
  EXPECT_EQ(size->getZExtValue(), 1u);
  const auto* id = llvm::dyn_cast<llvm::ConstantInt>(returned(*module, "id_beyond"));
  ASSERT_NE(id, nullptr) << testing::print_ir(*module);
  EXPECT_EQ(id->getZExtValue(), 0u);

  EXPECT_TRUE(llvm::isa<llvm::CallInst>(returned(*module, "groups_in_range")));

  for (const auto& [name, beyond] : {std::pair{"size_variable", 1u}, std::pair{"offset_variable", 0u}}) {
    const llvm::Function* f = module->getFunction(name);
    const llvm::SelectInst* select = nullptr;
    for (const llvm::Instruction& i : f->getEntryBlock())
      if (const auto* s = llvm::dyn_cast<llvm::SelectInst>(&i)) select = s;
    ASSERT_NE(select, nullptr) << name << ":\n" << testing::print_ir(*module);
    const auto* compare = llvm::dyn_cast<llvm::ICmpInst>(select->getCondition());
    ASSERT_NE(compare, nullptr);
    EXPECT_EQ(compare->getPredicate(), llvm::ICmpInst::ICMP_ULT);
    EXPECT_EQ(compare->getOperand(0), f->getArg(0));
    EXPECT_EQ(llvm::cast<llvm::ConstantInt>(compare->getOperand(1))->getZExtValue(), 3u);
    EXPECT_TRUE(llvm::isa<llvm::CallInst>(select->getTrueValue())) << name;
    EXPECT_EQ(llvm::cast<llvm::ConstantInt>(select->getFalseValue())->getZExtValue(), beyond) << name;
  }
  // The call's other users read the select, not the call.
  const llvm::Value* sum = returned(*module, "offset_variable");
  EXPECT_TRUE(llvm::isa<llvm::SelectInst>(llvm::cast<llvm::BinaryOperator>(sum)->getOperand(0)));
}

}  // namespace
}  // namespace vkcl
