#include "immerse/core/csv.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <system_error>

#include "immerse/core/error.hpp"

namespace immerse {

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns, const std::string& comment)
    : ncols_(columns.size()), path_(path) {
  f_ = std::fopen(path.c_str(), "w");
  if (!f_) throw OutputError(fmt::format("cannot write {}: {}", path, std::strerror(errno)));
  std::string header;
  if (!comment.empty()) header += fmt::format("# {}\n", comment);
  for (size_t i = 0; i < columns.size(); ++i) header += fmt::format("{}{}", i ? "," : "", columns[i]);
  put(header + "\n");
}

CsvWriter::CsvWriter(const std::string& path, size_t columns) : ncols_(columns), path_(path) {
  f_ = std::fopen(path.c_str(), "a");
  if (!f_) throw OutputError(fmt::format("cannot append to {}: {}", path, std::strerror(errno)));
}

CsvWriter::~CsvWriter() {
  if (f_) std::fclose(f_);
}

void CsvWriter::row(const std::vector<double>& values) {
  if (values.size() != ncols_)
    throw Error(fmt::format("{}: row of {} values for {} columns", path_, values.size(), ncols_), kExitInternal);
  std::string line;
  for (size_t i = 0; i < values.size(); ++i) line += fmt::format("{}{:.10g}", i ? "," : "", values[i]);
  put(line + "\n");
}

void CsvWriter::put(const std::string& text) {
  // Flushed row by row so an interrupted run keeps every finished row; a full disk shows at the
  // write or the flush, and the file then ends at the last complete row.
  if (std::fwrite(text.data(), 1, text.size(), f_) != text.size() || std::fflush(f_) != 0)
    throw OutputError(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
}

}  // namespace immerse
