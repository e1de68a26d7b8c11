#pragma once
// A formula of x, y, z, t written in a case file (muparser syntax: sin, exp, abs, ^, ?:, pi, ...),
// evaluated on the host. Solvers sample formulas into host mirrors and copy them to the device, so
// kernels stay plain arithmetic.
#include <memory>
#include <string>

namespace immerse {

class Expression {
 public:
  // `key` names where the formula came from (file and key) for error messages.
  Expression(const std::string& formula, const std::string& key);
  ~Expression();
  Expression(Expression&&) noexcept;
  Expression& operator=(Expression&&) noexcept;

  double operator()(double x, double y = 0, double z = 0, double t = 0) const;
  const std::string& formula() const { return formula_; }
  // Whether the formula reads variable x, y, z or t (a time-independent profile is sampled once).
  bool uses(const std::string& variable) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string formula_, key_;
};

}  // namespace immerse
