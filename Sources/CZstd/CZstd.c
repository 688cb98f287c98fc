#include "CZstd.h"

// libzstd is loaded on the first zstd input, not linked: its header is not
// installed where stanzaq is built (only the library is), and most runs read
// no zstd at all. The soname is that of zstd 1.x, whose streaming API these
// functions are (stable since zstd 1.0).
#include <dlfcn.h>
#include <pthread.h>

#if defined(__APPLE__)
#define STANZAQ_LIBZSTD "libzstd.1.dylib"
#else
#define STANZAQ_LIBZSTD "libzstd.so.1"
#endif

static void *(*createDStream)(void);
static size_t (*initDStream)(void *);
static size_t (*freeDStream)(void *);
static size_t (*decompressStream)(void *, ZSTD_outBuffer *, ZSTD_inBuffer *);
static unsigned (*isError)(size_t);
static const char *(*getErrorName)(size_t);
static const char *loadError = "";
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen(STANZAQ_LIBZSTD, RTLD_NOW | RTLD_LOCAL);
    if (library) {
        createDStream = (void *(*)(void))dlsym(library, "ZSTD_createDStream");
        initDStream = (size_t (*)(void *))dlsym(library, "ZSTD_initDStream");
        freeDStream = (size_t (*)(void *))dlsym(library, "ZSTD_freeDStream");
        decompressStream = (size_t (*)(void *, ZSTD_outBuffer *, ZSTD_inBuffer *))dlsym(library, "ZSTD_decompressStream");
        isError = (unsigned (*)(size_t))dlsym(library, "ZSTD_isError");
        getErrorName = (const char *(*)(size_t))dlsym(library, "ZSTD_getErrorName");
    }
    if (!createDStream || !initDStream || !freeDStream || !decompressStream || !isError || !getErrorName) {
        const char *message = dlerror();
        loadError = message ? message : "libzstd lacks its streaming decompression";
        createDStream = NULL;
    }
}

void *stanzaq_zstd_create(void) {
    pthread_once(&once, load);
    if (!createDStream) return NULL;
    void *stream = createDStream();
    if (stream && isError(initDStream(stream))) {
        freeDStream(stream);
        return NULL;
    }
    return stream;
}

void stanzaq_zstd_free(void *stream) {
    if (stream) freeDStream(stream);
}

size_t stanzaq_zstd_decompress(void *stream, ZSTD_outBuffer *output, ZSTD_inBuffer *input) {
    return decompressStream(stream, output, input);
}

const char *stanzaq_zstd_error_name(size_t code) {
    return isError(code) ? getErrorName(code) : NULL;
}

const char *stanzaq_zstd_error(void) {
    pthread_once(&once, load);
    return loadError;
}
