#include "immerse/core/schema.hpp"

#include <fmt/format.h>

#include <cmath>

#include "immerse/core/error.hpp"
#include "immerse/core/user_input.hpp"

namespace immerse {
namespace {

std::string join_path(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

std::string range_text(const Schema::Key& k) {
  const bool lo = std::isfinite(k.min), hi = std::isfinite(k.max);
  if (lo && hi) return fmt::format("[{:g}, {:g}]", k.min, k.max);
  if (lo) return fmt::format(">= {:g}", k.min);
  if (hi) return fmt::format("<= {:g}", k.max);
  return "any number";
}

std::string type_name(Schema::Type t) {
  switch (t) {
    case Schema::Type::number:
      return "number";
    case Schema::Type::integer:
      return "integer";
    case Schema::Type::boolean:
      return "boolean";
    case Schema::Type::string:
      return "string";
    case Schema::Type::strings:
      return "array of strings";
    case Schema::Type::choice:
      return "string";
    case Schema::Type::expression:
      return "formula";
    case Schema::Type::vector:
      return "array of numbers";
    case Schema::Type::object:
      return "object";
    case Schema::Type::list:
      return "array of objects";
    case Schema::Type::free_object:
      return "object";
  }
  return "?";
}

[[noreturn]] void fail(const std::string& source, const std::string& path, const std::string& what) {
  throw InputError(fmt::format("{}: key '{}': {}", source, path, what));
}

void check_number(const json& v, const Schema::Key& k, const std::string& source, const std::string& path) {
  if (!v.is_number()) fail(source, path, fmt::format("expected a number, got {}", describe_json(v)));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < k.min || x > k.max)
    fail(source, path, fmt::format("value {:g} outside the allowed range {}", x, range_text(k)));
}

// Levenshtein distance, for "did you mean" hints on unknown keys.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string suggestion(const Schema& s, const std::string& name) {
  if (const std::string* now = s.renamed_to(name)) return fmt::format(" (now '{}', with the same values)", *now);
  std::string best;
  size_t best_d = 4;
  for (const auto& k : s.keys()) {
    const size_t d = edit_distance(k.name, name);
    if (d < best_d) {
      best_d = d;
      best = k.name;
    }
  }
  std::string known;
  for (const auto& k : s.keys()) known += (known.empty() ? "" : ", ") + k.name;
  return (best.empty() ? "" : " (did you mean '" + best + "'?)") + std::string("; known keys here: ") + known;
}

}  // namespace

Schema& Schema::add(Key k) {
  keys_.push_back(std::move(k));
  return *this;
}

Schema& Schema::merge(const Schema& other) {
  for (const auto& k : other.keys_) add(k);
  renamed_.insert(renamed_.end(), other.renamed_.begin(), other.renamed_.end());
  return *this;
}

Schema& Schema::renamed(const std::string& old_name, const std::string& new_name) {
  renamed_.emplace_back(old_name, new_name);
  return *this;
}

const std::string* Schema::renamed_to(const std::string& old_name) const {
  for (const auto& r : renamed_)
    if (r.first == old_name) return &r.second;
  return nullptr;
}

const Schema::Key* Schema::find(const std::string& name) const {
  for (const auto& k : keys_)
    if (k.name == name) return &k;
  return nullptr;
}

namespace {
Schema::Key make_key(const std::string& name, Schema::Type type, json def, std::string help) {
  Schema::Key k;
  k.name = name;
  k.type = type;
  k.default_value = std::move(def);
  k.help = std::move(help);
  return k;
}
}  // namespace

Schema& Schema::number(const std::string& name, json def, double min, double max, std::string units, std::string help) {
  Key k = make_key(name, Type::number, std::move(def), std::move(help));
  k.min = min;
  k.max = max;
  k.units = std::move(units);
  return add(std::move(k));
}
Schema& Schema::integer(const std::string& name, json def, double min, double max, std::string help) {
  Key k = make_key(name, Type::integer, std::move(def), std::move(help));
  k.min = min;
  k.max = max;
  return add(std::move(k));
}
Schema& Schema::boolean(const std::string& name, json def, std::string help) {
  return add(make_key(name, Type::boolean, std::move(def), std::move(help)));
}
Schema& Schema::string(const std::string& name, json def, std::string help) {
  return add(make_key(name, Type::string, std::move(def), std::move(help)));
}
Schema& Schema::strings(const std::string& name, json def, std::string help) {
  return add(make_key(name, Type::strings, std::move(def), std::move(help)));
}
Schema& Schema::choice(const std::string& name, json def, std::vector<std::string> choices, std::string help) {
  Key k = make_key(name, Type::choice, std::move(def), std::move(help));
  k.choices = std::move(choices);
  return add(std::move(k));
}
Schema& Schema::expression(const std::string& name, json def, std::string help) {
  return add(make_key(name, Type::expression, std::move(def), std::move(help)));
}
Schema& Schema::vector(const std::string& name, json def, int length, double min, double max, std::string units,
                       std::string help) {
  Key k = make_key(name, Type::vector, std::move(def), std::move(help));
  k.length = length;
  k.min = min;
  k.max = max;
  k.units = std::move(units);
  return add(std::move(k));
}
Schema& Schema::object(const std::string& name, Schema sub, std::string help) {
  Key k = make_key(name, Type::object, json::object(), std::move(help));
  k.sub = std::make_shared<Schema>(std::move(sub));
  return add(std::move(k));
}
Schema& Schema::list(const std::string& name, Schema element, std::string help) {
  Key k = make_key(name, Type::list, json::array(), std::move(help));
  k.sub = std::make_shared<Schema>(std::move(element));
  return add(std::move(k));
}
Schema& Schema::free_object(const std::string& name, std::string help) {
  return add(make_key(name, Type::free_object, json::object(), std::move(help)));
}

json Schema::resolve(const json& input, const std::string& source, const std::string& prefix) const {
  if (!input.is_object())
    fail(source, prefix.empty() ? "(top level)" : prefix,
         fmt::format("expected an object, got {}", describe_json(input)));
  for (auto it = input.begin(); it != input.end(); ++it)
    if (!find(it.key())) fail(source, join_path(prefix, it.key()), "unknown key" + suggestion(*this, it.key()));

  json out = json::object();
  for (const Key& k : keys_) {
    const std::string path = join_path(prefix, k.name);
    const bool given = input.contains(k.name);
    if (!given && k.default_value.is_null()) fail(source, path, "required key is missing (" + k.help + ")");
    const json& v = given ? input.at(k.name) : k.default_value;
    switch (k.type) {
      case Type::number:
        check_number(v, k, source, path);
        out[k.name] = v.get<double>();
        break;
      case Type::integer:
        if (!v.is_number() || std::floor(v.get<double>()) != v.get<double>())
          fail(source, path, fmt::format("expected an integer, got {}", describe_json(v)));
        check_number(v, k, source, path);
        out[k.name] = v.get<long long>();
        break;
      case Type::boolean:
        if (!v.is_boolean()) fail(source, path, fmt::format("expected true or false, got {}", describe_json(v)));
        out[k.name] = v;
        break;
      case Type::string:
      case Type::expression:
        if (!v.is_string())
          fail(source, path, fmt::format("expected a {}, got {}", type_name(k.type), describe_json(v)));
        out[k.name] = v;
        break;
      case Type::strings:
        if (!v.is_array()) fail(source, path, fmt::format("expected an array of strings, got {}", describe_json(v)));
        for (size_t i = 0; i < v.size(); ++i)
          if (!v[i].is_string())
            fail(source, path + "." + std::to_string(i), fmt::format("expected a string, got {}", describe_json(v[i])));
        out[k.name] = v;
        break;
      case Type::choice: {
        std::string allowed;
        for (const auto& c : k.choices) allowed += (allowed.empty() ? "" : "|") + c;
        if (!v.is_string()) fail(source, path, fmt::format("expected one of {}, got {}", allowed, describe_json(v)));
        bool ok = false;
        for (const auto& c : k.choices) ok = ok || c == v.get<std::string>();
        if (!ok) fail(source, path, fmt::format("'{}' is not one of {}", v.get<std::string>(), allowed));
        out[k.name] = v;
        break;
      }
      case Type::vector:
        if (!v.is_array() || (k.length > 0 && static_cast<int>(v.size()) != k.length))
          fail(source, path,
               fmt::format("expected an array of {} numbers, got {}", k.length > 0 ? std::to_string(k.length) : "",
                           describe_json(v)));
        for (size_t i = 0; i < v.size(); ++i) check_number(v[i], k, source, path + "." + std::to_string(i));
        out[k.name] = v;
        break;
      case Type::object:
        out[k.name] = k.sub->resolve(v, source, path);
        break;
      case Type::list:
        if (!v.is_array()) fail(source, path, fmt::format("expected an array of objects, got {}", describe_json(v)));
        out[k.name] = json::array();
        for (size_t i = 0; i < v.size(); ++i)
          out[k.name].push_back(k.sub->resolve(v[i], source, path + "." + std::to_string(i)));
        break;
      case Type::free_object:
        if (!v.is_object()) fail(source, path, fmt::format("expected an object, got {}", describe_json(v)));
        out[k.name] = v;
        break;
    }
  }
  return out;
}

std::string Schema::describe(const std::string& prefix) const {
  std::string out;
  for (const Key& k : keys_) {
    const std::string path = join_path(prefix, k.name);
    if (k.type == Type::object) {
      out += k.sub->describe(path);
      continue;
    }
    if (k.type == Type::list) {
      out += fmt::format("| `{}` | array of objects | | | {} |\n", path, k.help);
      out += k.sub->describe(path + ".N");
      continue;
    }
    std::string range;
    if (k.type == Type::number || k.type == Type::integer || k.type == Type::vector) range = range_text(k);
    if (k.type == Type::choice)
      for (const auto& c : k.choices) range += (range.empty() ? "" : " \\| ") + c;
    out += fmt::format("| `{}` | {} | {} | {} | {}{} |\n", path, type_name(k.type),
                       k.default_value.is_null() ? "required" : k.default_value.dump(), range, k.help,
                       k.units.empty() ? "" : " [" + k.units + "]");
  }
  return out;
}

void apply_override(json& doc, const Schema& schema, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError("--set '" + assignment + "': expected key=value (e.g. --set grid.nx=64)");
  const std::string path = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  json value;
  try {
    value = parse_json_input(text, "--set '" + assignment + "'");
  } catch (const json::parse_error&) {
    value = require_utf8(text, "--set '" + path + "'");  // plain strings need no quotes on the command line
  }
  // Walk the schema and the document together, creating objects on the way.
  const Schema* s = &schema;
  json* node = &doc;
  size_t start = 0;
  std::string walked;
  while (true) {
    const size_t dot = path.find('.', start);
    const std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    walked = walked.empty() ? part : walked + "." + part;
    if (node->is_array()) {  // list element by index
      size_t idx = 0;
      try {
        idx = std::stoul(part);
      } catch (...) {
        throw InputError(fmt::format("--set: key '{}': '{}' is not an index into the list", walked, part));
      }
      if (idx >= node->size())
        throw InputError(
            fmt::format("--set: key '{}': index {} out of range (the list has {} entries)", walked, idx, node->size()));
      node = &(*node)[idx];
      if (dot == std::string::npos) {
        *node = value;
        return;
      }
      start = dot + 1;
      continue;
    }
    const Schema::Key* k = s->find(part);
    if (!k) throw InputError(fmt::format("--set: key '{}': unknown key{}", walked, suggestion(*s, part)));
    if (!node->is_object()) *node = json::object();
    if (dot == std::string::npos) {
      (*node)[part] = value;
      return;
    }
    if (k->type != Schema::Type::object && k->type != Schema::Type::list && k->type != Schema::Type::free_object)
      throw InputError(fmt::format("--set: key '{}' is a {}, it has no sub-keys", walked, type_name(k->type)));
    if (!node->contains(part)) (*node)[part] = k->type == Schema::Type::list ? json::array() : json::object();
    node = &(*node)[part];
    if (k->type == Schema::Type::free_object) {
      (*node)[path.substr(dot + 1)] = value;
      return;
    }
    s = k->sub.get();
    start = dot + 1;
  }
}

}  // namespace immerse
