// Builtin signatures (ir/builtins) and implementations (eval/builtins): one table of signatures,
// shared by the checker and the evaluator, each with exactly one implementation.
#include "eval/builtins.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ir/builtins.h"

namespace {

TEST(Builtins, EverySignatureHasOneImplementation) {
  EXPECT_TRUE(polemos::eval::builtinsComplete());
  for (int i = 0; i < polemos::ir::builtinCount(); ++i)
    EXPECT_NE(polemos::eval::builtinFn(i), nullptr) << i;
}

TEST(Builtins, NamesAreUniqueAndFound) {
  std::set<std::string> names;
  for (int i = 0; i < polemos::ir::builtinCount(); ++i) {
    const auto& b = polemos::ir::builtin(i);
    EXPECT_TRUE(names.insert(b.name).second) << b.name;
    EXPECT_EQ(polemos::ir::findBuiltin(b.name), i);
    EXPECT_LE(b.minArgs, b.maxArgs) << b.name;
  }
  EXPECT_EQ(polemos::ir::findBuiltin("no_such_builtin"), -1);
}

TEST(Builtins, EffectsAreMarked) {
  EXPECT_TRUE(polemos::ir::builtin(polemos::ir::findBuiltin("place")).effect);
  EXPECT_FALSE(polemos::ir::builtin(polemos::ir::findBuiltin("distance")).effect);
}

}  // namespace
