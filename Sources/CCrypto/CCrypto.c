#include "CCrypto.h"

#if defined(__APPLE__)
#include <CommonCrypto/CommonDigest.h>

int32_t stanzaq_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
    // (Values longer than 4 GiB do not reach here: the reader's limits are far below.)
    CC_SHA256(data, (CC_LONG)length, digest);
    return 1;
}

const char *stanzaq_sha256_error(void) { return ""; }
#else
// OpenSSL's libcrypto, loaded when first needed: one query in many uses
// `|uuidcast`, and loading libcrypto (relocating its many pointers) at every
// start slowed every start-up, for the few runs that need it. The soname is
// that of the OpenSSL whose headers stanzaq is built with (libcrypto.so.3);
// packages declare it (packaging/deb/make-deb.sh).
#include <dlfcn.h>
#include <pthread.h>
#include <openssl/opensslv.h>
#include <openssl/sha.h>

#define STANZAQ_STRING(x) #x
#define STANZAQ_EXPANDED_STRING(x) STANZAQ_STRING(x)

static __typeof__(&SHA256) sha256;
static const char *loadError = "";
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libcrypto.so." STANZAQ_EXPANDED_STRING(OPENSSL_SHLIB_VERSION), RTLD_NOW | RTLD_LOCAL);
    if (library) sha256 = (__typeof__(sha256))dlsym(library, "SHA256");
    if (!sha256) {
        const char *message = dlerror();
        loadError = message ? message : "libcrypto has no SHA256";
    }
}

int32_t stanzaq_sha256(const uint8_t *data, size_t length, uint8_t digest[32]) {
    pthread_once(&once, load);
    if (!sha256) return 0;
    sha256(data, length, digest);
    return 1;
}

const char *stanzaq_sha256_error(void) {
    pthread_once(&once, load);
    return loadError;
}
#endif
