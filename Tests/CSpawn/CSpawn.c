#define _GNU_SOURCE
#include <spawn.h>
#include "CSpawn.h"

int stanzaq_spawn_file_actions_addchdir(posix_spawn_file_actions_t *actions, const char *path) {
    return posix_spawn_file_actions_addchdir_np(actions, path);
}

int stanzaq_spawnattr_setsid(posix_spawnattr_t *attributes) {
    return posix_spawnattr_setflags(attributes, POSIX_SPAWN_SETSID);
}
