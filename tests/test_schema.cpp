// Case-file checking: every key is known, typed and in range, and messages name file, key and range.
#include <gtest/gtest.h>

#include "immerse/core/choices.hpp"
#include "immerse/core/error.hpp"
#include "immerse/core/schema.hpp"

using immerse::InputError;
using immerse::json;
using immerse::Schema;

namespace {

Schema sample() {
  Schema grid;
  grid.integer("nx", 8, 3, 100, "cells").number("dx", 0.5, 1e-6, 10, "m", "cell size");
  Schema s;
  s.object("grid", grid, "grid")
      .choice("mode", "physical", {"physical", "patent"}, "mode")
      .expression("f", "0", "formula");
  return s;
}

std::string error_of(const json& doc) {
  try {
    sample().resolve(doc, "case.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Schema, FillsDefaults) {
  const json r = sample().resolve(json::object(), "case.json");
  EXPECT_EQ(r["grid"]["nx"], 8);
  EXPECT_EQ(r["mode"], "physical");
}

TEST(Schema, UnknownKeyIsNamedWithSuggestion) {
  const std::string e = error_of({{"grid", {{"nz", 4}}}});
  EXPECT_NE(e.find("case.json: key 'grid.nz': unknown key"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'nx'"), std::string::npos) << e;
}

TEST(Schema, RenamedKeyNamesItsNewName) {
  Schema grid;
  grid.integer("cells", 8, 3, 100, "cells").renamed("nx", "cells");
  Schema s;
  s.object("grid", grid, "grid");
  std::string e;
  try {
    s.resolve({{"grid", {{"nx", 4}}}}, "case.json");
  } catch (const InputError& x) {
    e = x.what();
  }
  EXPECT_NE(e.find("case.json: key 'grid.nx': unknown key (now 'cells', with the same values)"), std::string::npos)
      << e;
  json doc = json::object();
  EXPECT_THROW(immerse::apply_override(doc, s, "grid.nx=4"), InputError);
  immerse::apply_override(doc, s, "grid.cells=4");
  EXPECT_EQ(s.resolve(doc, "--set")["grid"]["cells"], 4);
}

TEST(Schema, OutOfRangeNamesTheRange) {
  const std::string e = error_of({{"grid", {{"nx", 1000}}}});
  EXPECT_NE(e.find("key 'grid.nx'"), std::string::npos) << e;
  EXPECT_NE(e.find("[3, 100]"), std::string::npos) << e;
}

TEST(Schema, WrongTypeAndBadChoice) {
  EXPECT_NE(error_of({{"grid", {{"dx", "big"}}}}).find("expected a number"), std::string::npos);
  EXPECT_NE(error_of({{"grid", {{"nx", 4.5}}}}).find("expected an integer"), std::string::npos);
  EXPECT_NE(error_of({{"mode", "magic"}}).find("not one of physical|patent"), std::string::npos);
}

TEST(Schema, OverridesAreCheckedAgainstTheSchema) {
  json doc = json::object();
  immerse::apply_override(doc, sample(), "grid.nx=12");
  immerse::apply_override(doc, sample(), "mode=patent");  // bare strings need no quotes
  const json r = sample().resolve(doc, "case.json");
  EXPECT_EQ(r["grid"]["nx"], 12);
  EXPECT_EQ(r["mode"], "patent");
  EXPECT_THROW(immerse::apply_override(doc, sample(), "grid.nq=3"), InputError);
  EXPECT_THROW(immerse::apply_override(doc, sample(), "nonsense"), InputError);
}

// A choice table gives the schema its names and reads them back; an unknown name is an error that
// names the key, never a silent default (the borders once mapped any unknown name to a default).
TEST(Choices, NamesSubsetsAndParse) {
  enum class Side { inflow, outflow, wall };
  const immerse::Choices<Side> c{{"inflow", Side::inflow}, {"outflow", Side::outflow}, {"wall", Side::wall}};
  EXPECT_EQ(c.names(), (std::vector<std::string>{"inflow", "outflow", "wall"}));
  EXPECT_EQ(c.names({Side::wall, Side::inflow}), (std::vector<std::string>{"inflow", "wall"}));
  EXPECT_EQ(c.parse(json("outflow"), "sides.left"), Side::outflow);
  EXPECT_EQ(c.name(Side::wall), "wall");
  try {
    c.parse(json("outflw"), "sides.left");
    FAIL() << "an unknown name was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'sides.left': 'outflw' is not one of inflow|outflow|wall"),
              std::string::npos)
        << e.what();
  }
}

TEST(Schema, StringsKeyTakesAnArrayOfStringsOnly) {
  Schema s;
  s.strings("names", json::array(), "names");
  EXPECT_EQ(s.resolve({{"names", {"a", "b"}}}, "case.json")["names"].size(), 2u);
  try {
    s.resolve({{"names", {"a", 3}}}, "case.json");
    FAIL() << "a number among the strings was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("key 'names.1': expected a string, got 3"), std::string::npos) << e.what();
  }
}
