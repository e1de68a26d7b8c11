#pragma once
// Errors are values with an exit code: the `immerse` program maps each kind to its documented code
// (0 ok, 1 validation failed, 2 bad input, 3 numerical failure, 4 internal, 5 output not written,
// 130 interrupted).
#include <stdexcept>
#include <string>

namespace immerse {

enum ExitCode : int {
  kExitOk = 0,
  kExitValidationFailed = 1,
  kExitBadInput = 2,
  kExitNumerical = 3,
  kExitInternal = 4,
  kExitOutput = 5,
  kExitInterrupted = 130
};

class Error : public std::runtime_error {
 public:
  Error(const std::string& what, int exit_code) : std::runtime_error(what), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

// A malformed case file, an unknown key, a value outside its range, an unstable parameter.
struct InputError : Error {
  explicit InputError(const std::string& what) : Error(what, kExitBadInput) {}
};

// NaN/Inf in a field or an instability detector fired; the message names field, cell and step.
struct NumericalError : Error {
  explicit NumericalError(const std::string& what) : Error(what, kExitNumerical) {}
};

// A file could not be created or written (a missing permission, a full disk); names the file and
// the system's reason.
struct OutputError : Error {
  explicit OutputError(const std::string& what) : Error(what, kExitOutput) {}
};

}  // namespace immerse
