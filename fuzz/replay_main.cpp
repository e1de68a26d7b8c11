// A main() for builds without libFuzzer (GCC, the CUDA preset): runs a fuzz target once on every
// file named on the command line or found in a named folder, in name order. ctest uses it to replay
// the regression corpus and the canned cases through the targets on every build.
//
// With `--mutate N` (and `--seed S`, default 1) it also runs N mutants of every file: a blind,
// seeded stand-in for libFuzzer where only GCC builds run (CI). Each mutant applies one to four
// edits, as libFuzzer's mutators do: flip a bit, overwrite, insert or erase bytes, copy a piece of
// the input elsewhere, put a boundary number (0, -1, 1e308, nan, ...) where a number was, or
// append a `#--set` line that sets one of the input's own keys. Before each mutant runs, its bytes
// go to `fuzz-last-input` in the working folder, so a crash leaves its reproducer behind.
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

namespace {

void run_one(const std::string& bytes) {
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

// A quoted word of the input (a key name, most often), or "" if there is none.
std::string some_quoted_word(const std::string& s, std::mt19937_64& rng) {
  std::vector<std::pair<size_t, size_t>> words;
  for (size_t at = s.find('"'); at != std::string::npos && words.size() < 4096;) {
    const size_t end = s.find('"', at + 1);
    if (end == std::string::npos) break;
    if (end - at - 1 > 0 && end - at - 1 < 40) words.emplace_back(at + 1, end - at - 1);
    at = s.find('"', end + 1);
  }
  if (words.empty()) return "";
  const auto& w = words[rng() % words.size()];
  return s.substr(w.first, w.second);
}

std::string mutate(std::string s, std::mt19937_64& rng) {
  static const char* const kNumbers[] = {"0",
                                         "-1",
                                         "1",
                                         "1e308",
                                         "-1e308",
                                         "nan",
                                         "inf",
                                         "1e-308",
                                         "2147483648",
                                         "-0",
                                         "0.5",
                                         "1e6",
                                         "99999999999999999999"};
  static const char* const kSetValues[] = {
      "0", "-1", "1e308", "\"\"", "[]", "{}", "null", "true", "\"x / 0\"", "[1e308, -1e308, 0]", "\"sin(\"", "\"1 +\""};
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    const size_t n = s.size();
    const size_t at = n ? rng() % n : 0;
    switch (rng() % 8) {
      case 0:  // flip a bit
        if (n) s[at] = static_cast<char>(s[at] ^ (1 << (rng() % 8)));
        break;
      case 1:  // overwrite a byte
        if (n) s[at] = static_cast<char>(rng() % 256);
        break;
      case 2:  // insert bytes
        s.insert(at, std::string(1 + rng() % 4, static_cast<char>(rng() % 256)));
        break;
      case 3:  // erase a piece
        if (n) s.erase(at, 1 + rng() % std::min<size_t>(n - at, 64));
        break;
      case 4: {  // copy a piece elsewhere
        if (!n) break;
        const std::string piece = s.substr(at, 1 + rng() % std::min<size_t>(n - at, 64));
        s.insert(rng() % (n + 1), piece);
        break;
      }
      case 5: {  // a boundary number where a number was
        size_t d = at;
        while (d < n && !std::isdigit(static_cast<unsigned char>(s[d]))) ++d;
        if (d >= n) break;
        size_t end = d;
        while (end < n && (std::isdigit(static_cast<unsigned char>(s[end])) || s[end] == '.' || s[end] == 'e')) ++end;
        s.replace(d, end - d, kNumbers[rng() % std::size(kNumbers)]);
        break;
      }
      default: {  // an override of one of the input's own words
        const std::string key = some_quoted_word(s, rng);
        if (key.empty()) break;
        if (s.find("\n#--set\n") == std::string::npos) s += "\n#--set\n";
        s += key + "=" + kSetValues[rng() % std::size(kSetValues)] + "\n";
        break;
      }
    }
  }
  return s;
}

}  // namespace

int main(int argc, char* argv[]) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  long mutants = 0;
  unsigned long long seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mutate" && i + 1 < argc) {
      mutants = std::strtol(argv[++i], nullptr, 10);
      continue;
    }
    if (arg == "--seed" && i + 1 < argc) {
      seed = std::strtoull(argv[++i], nullptr, 10);
      continue;
    }
    if (fs::is_directory(arg)) {
      for (const auto& e : fs::recursive_directory_iterator(arg))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.emplace_back(arg);
    }
  }
  std::sort(files.begin(), files.end());
  std::mt19937_64 rng(seed);
  long mutated = 0;
  for (const auto& f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", f.string().c_str());
      return 1;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    run_one(bytes);
    for (long m = 0; m < mutants; ++m, ++mutated) {
      const std::string mutant = mutate(bytes, rng);
      std::ofstream("fuzz-last-input", std::ios::binary | std::ios::trunc) << mutant;
      try {
        run_one(mutant);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "mutant %ld of %s: uncaught %s (the input is in fuzz-last-input)\n", m, f.string().c_str(),
                     e.what());
        return 1;
      }
    }
  }
  std::printf("replayed %zu inputs and %ld mutants (seed %llu)\n", files.size(), mutated, seed);
  return files.empty() ? 1 : 0;
}
