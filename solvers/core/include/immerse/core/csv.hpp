#pragma once
// A CSV time series written row by row and flushed, so an interrupted run keeps every finished row.
#include <cstdio>
#include <string>
#include <vector>

namespace immerse {

class CsvWriter {
 public:
  CsvWriter(const std::string& path, const std::vector<std::string>& columns, const std::string& comment = "");
  // Appends rows of `columns` values to an existing series (a resumed run).
  CsvWriter(const std::string& path, size_t columns);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  // OutputError (exit 5) when the row cannot be written (a full disk).
  void row(const std::vector<double>& values);

 private:
  void put(const std::string& text);
  std::FILE* f_ = nullptr;
  size_t ncols_;
  std::string path_;
};

}  // namespace immerse
