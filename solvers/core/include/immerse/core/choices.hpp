#pragma once
// The names of an enum's values, declared once: a schema's choice key lists them (all, or the subset
// a key allows), the parameter reader turns a resolved value back into the enum, and to_string goes
// the other way. A name the table does not know is an error, never a silent default.
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "immerse/core/error.hpp"

namespace immerse {

template <class E>
class Choices {
 public:
  Choices(std::initializer_list<std::pair<const char*, E>> values) : values_(values) {}

  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& v : values_) out.push_back(v.first);
    return out;
  }
  // The names of `subset`, in the table's order.
  std::vector<std::string> names(std::initializer_list<E> subset) const {
    std::vector<std::string> out;
    for (const auto& v : values_)
      for (E e : subset)
        if (v.second == e) out.push_back(v.first);
    return out;
  }
  std::string name(E e) const {
    for (const auto& v : values_)
      if (v.second == e) return v.first;
    throw Error("choice table without a name for value " + std::to_string(static_cast<int>(e)), kExitInternal);
  }
  // `key` names the case-file key in the message; a resolved case has been checked against the
  // schema, so an unknown name here is a schema and table out of step.
  E parse(const std::string& name, const std::string& key) const {
    std::string known;
    for (const auto& v : values_) {
      if (name == v.first) return v.second;
      known += (known.empty() ? "" : "|") + std::string(v.first);
    }
    throw InputError("key '" + key + "': '" + name + "' is not one of " + known);
  }
  // The same for a JSON string value of a resolved case.
  template <class Json, class = decltype(std::declval<const Json&>().template get<std::string>())>
  E parse(const Json& value, const std::string& key) const {
    return parse(value.template get<std::string>(), key);
  }

 private:
  std::vector<std::pair<const char*, E>> values_;
};

}  // namespace immerse
