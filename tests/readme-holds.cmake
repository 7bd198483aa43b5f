# cmake -DREADME=... -DEXAMPLE=... -P readme-holds.cmake: fails unless README holds the
# example file's text verbatim (inside its ```c block).
file(READ "${README}" readme)
file(READ "${EXAMPLE}" example)
string(FIND "${readme}" "${example}" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${README} does not hold ${EXAMPLE} verbatim: copy the file into its ```c block")
endif()
