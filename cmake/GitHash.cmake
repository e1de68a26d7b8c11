# Script mode, run at every build: writes OUT (a header defining IMMERSE_GIT_HASH) from
# `git rev-parse` in SRC, touching it only when the hash changed, so result.json never reports a
# stale commit and unchanged builds recompile nothing.
execute_process(COMMAND git rev-parse --short=12 HEAD WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE hash OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT hash)
  set(hash unknown)
endif()
execute_process(COMMAND git status --porcelain --untracked-files=no WORKING_DIRECTORY ${SRC}
                OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(dirty AND NOT hash STREQUAL "unknown")
  set(hash "${hash}-dirty")
endif()
file(WRITE ${OUT}.tmp "#pragma once\n#define IMMERSE_GIT_HASH \"${hash}\"\n")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
