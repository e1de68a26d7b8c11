# Script mode: writes OUT, a C++ file defining
#   const std::vector<std::pair<std::string, std::string>>& SYMBOL();
# with each file's path relative to BASE and its text (as a raw string literal).
string(REPLACE "|" ";" FILES "${FILES}")
set(body "#include <string>\n#include <utility>\n#include <vector>\nnamespace immerse::embedded {\n")
string(APPEND body "const std::vector<std::pair<std::string, std::string>>& ${SYMBOL}() {\n  static const std::vector<std::pair<std::string, std::string>> files = {\n")
foreach(f IN LISTS FILES)
  file(READ ${f} text)
  file(RELATIVE_PATH rel ${BASE} ${f})
  string(APPEND body "    {\"${rel}\", R\"immerse_embed(${text})immerse_embed\"},\n")
endforeach()
string(APPEND body "  };\n  return files;\n}\n}  // namespace immerse::embedded\n")
file(WRITE ${OUT}.tmp "${body}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
