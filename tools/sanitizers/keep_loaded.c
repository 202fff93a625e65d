// LD_PRELOAD helper for the LeakSanitizer run (tools/test.sh): opens each
// shared object named in VKCL_SANITIZER_KEEP_LOADED (colon-separated) with
// RTLD_NODELETE, so that the Vulkan loader's dlclose() of the driver (Mesa's
// lavapipe) and of the validation layer at vkDestroyInstance no longer
// unmaps them. Their process-lifetime state then stays reachable and
// attributable at exit instead of showing as leaks from "<unknown module>".
// RTLD_LOCAL: nothing of theirs interposes on the loader's symbols.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

__attribute__((constructor)) static void keep_loaded(void) {
  const char* list = getenv("VKCL_SANITIZER_KEEP_LOADED");
  if (list == NULL) return;
  char* copy = strdup(list);
  for (char* name = strtok(copy, ":"); name != NULL; name = strtok(NULL, ":")) {
    if (dlopen(name, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE) == NULL)
      fprintf(stderr, "keep_loaded: %s\n", dlerror());
  }
  free(copy);
}
