# The files that decide what vkcl's compiler emits, as globs relative to the
# source tree: the module cache key's compiler identity hashes them
# (cmake/compiler_identity.cmake), and the build re-hashes when one changes
# (api/CMakeLists.txt).
set(VKCL_COMPILER_SOURCE_GLOBS
  builtins/*.cl builtins/*.h builtins/*.inc builtins/*.py builtins/CMakeLists.txt
  spirv/*.cpp spirv/*.h spirv/*.def spirv/CMakeLists.txt
  tools/clc/*.cpp tools/clc/*.h tools/clc/CMakeLists.txt)
