#include "immerse/core/expression.hpp"

#include <muParser.h>

#include <cmath>

#include "immerse/core/error.hpp"

namespace immerse {

struct Expression::Impl {
  mu::Parser parser;
  // muparser binds variables by address: they live here, next to the parser.
  double x = 0, y = 0, z = 0, t = 0;
};

Expression::Expression(const std::string& formula, const std::string& key)
    : impl_(std::make_unique<Impl>()), formula_(formula), key_(key) {
  try {
    impl_->parser.DefineVar("x", &impl_->x);
    impl_->parser.DefineVar("y", &impl_->y);
    impl_->parser.DefineVar("z", &impl_->z);
    impl_->parser.DefineVar("t", &impl_->t);
    impl_->parser.DefineConst("pi", M_PI);
    // floor/ceil are not muparser built-ins; the patent's integer-arithmetic profile needs floor.
    impl_->parser.DefineFun("floor", static_cast<double (*)(double)>(std::floor));
    impl_->parser.DefineFun("ceil", static_cast<double (*)(double)>(std::ceil));
    impl_->parser.SetExpr(formula);
    impl_->parser.Eval();  // parse now, so a bad formula fails at load time, not mid-run
  } catch (const mu::Parser::exception_type& e) {
    throw InputError(key + ": bad formula '" + formula + "': " + e.GetMsg() +
                     " (variables: x, y, z, t; muparser syntax)");
  }
}

Expression::~Expression() = default;
Expression::Expression(Expression&&) noexcept = default;
Expression& Expression::operator=(Expression&&) noexcept = default;

bool Expression::uses(const std::string& variable) const {
  const auto used = impl_->parser.GetUsedVar();
  return used.find(variable) != used.end();
}

double Expression::operator()(double x, double y, double z, double t) const {
  impl_->x = x;
  impl_->y = y;
  impl_->z = z;
  impl_->t = t;
  double v = 0;
  try {
    v = impl_->parser.Eval();
  } catch (const mu::Parser::exception_type& e) {
    throw InputError(key_ + ": formula '" + formula_ + "' failed: " + e.GetMsg());
  }
  if (!std::isfinite(v))
    throw InputError(key_ + ": formula '" + formula_ + "' is not finite at x=" + std::to_string(x) +
                     " y=" + std::to_string(y) + " t=" + std::to_string(t));
  return v;
}

}  // namespace immerse
