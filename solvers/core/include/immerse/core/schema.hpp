#pragma once
// Declarative description of a case file: every key with its type, default, allowed range, units
// and meaning. `Schema::resolve` checks a parsed case against it (unknown key, wrong type, value out
// of range -> InputError naming the file, the key and the range) and returns the complete parameter
// set with defaults filled in: that is what a run records as `parameters` in result.json.
#include <nlohmann/json.hpp>

#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace immerse {

using json = nlohmann::json;

class Schema {
 public:
  enum class Type { number, integer, boolean, string, strings, choice, expression, vector, object, list, free_object };

  struct Key {
    std::string name;
    Type type = Type::number;
    json default_value;  // null: required
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    std::vector<std::string> choices;  // for Type::choice
    int length = 0;                    // for Type::vector (0: any)
    std::string units;
    std::string help;
    std::shared_ptr<Schema> sub;  // for object / list (schema of each element)
  };

  Schema& number(const std::string& name, json def, double min, double max, std::string units, std::string help);
  Schema& integer(const std::string& name, json def, double min, double max, std::string help);
  Schema& boolean(const std::string& name, json def, std::string help);
  Schema& string(const std::string& name, json def, std::string help);
  // An array of strings (names, such as the checks a counterexample must fail).
  Schema& strings(const std::string& name, json def, std::string help);
  Schema& choice(const std::string& name, json def, std::vector<std::string> choices, std::string help);
  // A formula of x, y, z, t (muparser syntax), checked when the solver compiles it.
  Schema& expression(const std::string& name, json def, std::string help);
  Schema& vector(const std::string& name, json def, int length, double min, double max, std::string units,
                 std::string help);
  Schema& object(const std::string& name, Schema sub, std::string help);
  Schema& list(const std::string& name, Schema element, std::string help);
  // Any JSON object, not checked further (free-text blocks such as `units`).
  Schema& free_object(const std::string& name, std::string help);

  // Appends every key of `other` (a solver family's keys after the common case keys).
  Schema& merge(const Schema& other);
  // A key that was renamed: still unknown, but its message names the new key.
  Schema& renamed(const std::string& old_name, const std::string& new_name);
  const std::string* renamed_to(const std::string& old_name) const;

  const std::vector<Key>& keys() const { return keys_; }
  const Key* find(const std::string& name) const;

  // `source` names the file (or "--set") in messages; `prefix` is the dotted path of this object.
  json resolve(const json& input, const std::string& source, const std::string& prefix = "") const;

  // Documentation table (Markdown) of every key, for `immerse list --keys` and README.
  std::string describe(const std::string& prefix = "") const;

 private:
  Schema& add(Key k);
  std::vector<Key> keys_;
  std::vector<std::pair<std::string, std::string>> renamed_;  // old name, new name
};

// Applies `--set a.b.c=value` to a case document before it is resolved. The value is parsed as JSON
// when it parses (numbers, true/false, arrays), else taken as a string. The path must name a key the
// schema knows, else InputError naming it (with the closest known key).
void apply_override(json& doc, const Schema& schema, const std::string& assignment);

}  // namespace immerse
