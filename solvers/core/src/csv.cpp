#include "immerse/core/csv.hpp"

#include <fmt/format.h>

#include "immerse/core/error.hpp"

namespace immerse {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, const std::string& comment)
    : ncols_(columns.size()), path_(path) {
  f_ = std::fopen(path.c_str(), "w");
  if (!f_) throw Error("cannot write " + path, 1);
  if (!comment.empty()) fmt::print(f_, "# {}\n", comment);
  for (size_t i = 0; i < columns.size(); ++i) fmt::print(f_, "{}{}", i ? "," : "", columns[i]);
  fmt::print(f_, "\n");
  std::fflush(f_);
}

CsvWriter::~CsvWriter() {
  if (f_) std::fclose(f_);
}

void CsvWriter::row(const std::vector<double>& values) {
  if (values.size() != ncols_)
    throw Error(fmt::format("{}: row of {} values for {} columns", path_, values.size(), ncols_), 1);
  for (size_t i = 0; i < values.size(); ++i) fmt::print(f_, "{}{:.10g}", i ? "," : "", values[i]);
  fmt::print(f_, "\n");
  std::fflush(f_);
}

}  // namespace immerse
