#include <spawn.h>

/* The GNU parts of posix_spawn that Swift's Glibc module leaves out (they need
 * _GNU_SOURCE): starting a child in a directory and in a new session. */
int stanzaq_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path);
int stanzaq_spawnattr_setsid(posix_spawnattr_t *attributes);
