# cmake -DIN=file -DOUT=file.cpp -DNAME=symbol -DNS=namespace -P embed_text.cmake
# Writes OUT defining `const char *const NAME` (in namespace NS) holding the
# text of IN as a raw string literal (used for the report page template).
file(READ "${IN}" text)
string(FIND "${text}" ")ARCOLL_EMBED\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${IN} contains the raw-string delimiter )ARCOLL_EMBED\"")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by embed_text.cmake; do not edit.\n"
  "namespace ${NS} {\nextern const char *const ${NAME};\n"
  "const char *const ${NAME} = R\"ARCOLL_EMBED(${text})ARCOLL_EMBED\";\n}\n")
file(RENAME "${OUT}.tmp" "${OUT}")
