#include "CICU.h"

#include <stdlib.h>
#include <unicode/uregex.h>
#include <unicode/uversion.h>
#include <unicode/utypes.h>

// ICU's regular expressions are in libicui18n, which nothing else in stanzaq
// needs: loading it (and relocating its pointers) at every start was a large
// part of a start-up, paid by every search without a `~` filter. On Linux it is
// loaded on the first expression compiled (dlopen, by the soname of the ICU the
// headers belong to, libicui18n.so.72); libicuuc, which libxml2 loads anyway, is
// linked. Elsewhere (macOS: ICU from Homebrew, outside dlopen's search path)
// libicui18n is linked as usual.
#if defined(__linux__)
#include <dlfcn.h>
#include <pthread.h>

#define STANZAQ_STRING(x) #x
#define STANZAQ_EXPANDED_STRING(x) STANZAQ_STRING(x)
// ICU's functions by their versioned names: uregex_open expands to uregex_open_72.
#define STANZAQ_ICU_SYMBOL(name) STANZAQ_EXPANDED_STRING(name)

static struct {
    __typeof__(&uregex_open) open;
    __typeof__(&uregex_clone) clone;
    __typeof__(&uregex_close) close;
    __typeof__(&uregex_setStackLimit) setStackLimit;
    __typeof__(&uregex_setTimeLimit) setTimeLimit;
    __typeof__(&uregex_setMatchCallback) setMatchCallback;
    __typeof__(&uregex_setFindProgressCallback) setFindProgressCallback;
    __typeof__(&uregex_setText) setText;
    __typeof__(&uregex_find) find;
} icu;
static int icuLoaded;
static pthread_once_t icuOnce = PTHREAD_ONCE_INIT;

static void stanzaq_load_icu(void) {
    void *library = dlopen("libicui18n.so." STANZAQ_EXPANDED_STRING(U_ICU_VERSION_MAJOR_NUM), RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    icu.open = (__typeof__(icu.open))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_open));
    icu.clone = (__typeof__(icu.clone))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_clone));
    icu.close = (__typeof__(icu.close))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_close));
    icu.setStackLimit = (__typeof__(icu.setStackLimit))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_setStackLimit));
    icu.setTimeLimit = (__typeof__(icu.setTimeLimit))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_setTimeLimit));
    icu.setMatchCallback = (__typeof__(icu.setMatchCallback))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_setMatchCallback));
    icu.setFindProgressCallback =
        (__typeof__(icu.setFindProgressCallback))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_setFindProgressCallback));
    icu.setText = (__typeof__(icu.setText))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_setText));
    icu.find = (__typeof__(icu.find))dlsym(library, STANZAQ_ICU_SYMBOL(uregex_find));
    icuLoaded = icu.open && icu.clone && icu.close && icu.setStackLimit && icu.setTimeLimit && icu.setMatchCallback
        && icu.setFindProgressCallback && icu.setText && icu.find;
}

/// Whether libicui18n is loaded (loading it the first time).
static int stanzaq_icu_ready(void) {
    pthread_once(&icuOnce, stanzaq_load_icu);
    return icuLoaded;
}
#else
static int stanzaq_icu_ready(void) { return 1; }
static const struct {
    __typeof__(&uregex_open) open;
    __typeof__(&uregex_clone) clone;
    __typeof__(&uregex_close) close;
    __typeof__(&uregex_setStackLimit) setStackLimit;
    __typeof__(&uregex_setTimeLimit) setTimeLimit;
    __typeof__(&uregex_setMatchCallback) setMatchCallback;
    __typeof__(&uregex_setFindProgressCallback) setFindProgressCallback;
    __typeof__(&uregex_setText) setText;
    __typeof__(&uregex_find) find;
} icu = {
    uregex_open, uregex_clone, uregex_close, uregex_setStackLimit, uregex_setTimeLimit, uregex_setMatchCallback,
    uregex_setFindProgressCallback, uregex_setText, uregex_find,
};
#endif

struct stanzaq_regex {
    URegularExpression *regex;
    stanzaq_regex_check check;
    const void *context;
};

static UBool U_CALLCONV stanzaq_match_callback(const void *context, int32_t steps) {
    (void)steps;
    const stanzaq_regex *regex = context;
    return regex->check(regex->context, STANZAQ_REGEX_TICK) != 0;
}

static UBool U_CALLCONV stanzaq_find_progress_callback(const void *context, int64_t position) {
    (void)position;
    const stanzaq_regex *regex = context;
    return regex->check(regex->context, STANZAQ_REGEX_POSITION) != 0;
}

stanzaq_regex *stanzaq_regex_open(const uint16_t *pattern, int32_t length, int32_t caseInsensitive, int32_t *error) {
    if (!stanzaq_icu_ready()) {
        *error = (int32_t)U_MISSING_RESOURCE_ERROR;
        return NULL;
    }
    UErrorCode status = U_ZERO_ERROR;
    UParseError parseError;
    static const UChar empty[1] = {0};
    URegularExpression *compiled = icu.open(length > 0 ? (const UChar *)pattern : empty, length,
                                               caseInsensitive ? UREGEX_CASE_INSENSITIVE : 0, &parseError, &status);
    *error = (int32_t)status;
    if (U_FAILURE(status)) {
        if (compiled) icu.close(compiled);
        return NULL;
    }
    stanzaq_regex *regex = calloc(1, sizeof *regex);
    if (!regex) {
        icu.close(compiled);
        *error = (int32_t)U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    regex->regex = compiled;
    return regex;
}

stanzaq_regex *stanzaq_regex_clone(const stanzaq_regex *original, int32_t stackLimit, stanzaq_regex_check check,
                                   const void *context) {
    UErrorCode status = U_ZERO_ERROR;
    URegularExpression *copy = icu.clone(original->regex, &status);
    if (U_FAILURE(status)) return NULL;
    stanzaq_regex *regex = calloc(1, sizeof *regex);
    if (!regex) {
        icu.close(copy);
        return NULL;
    }
    regex->regex = copy;
    regex->check = check;
    regex->context = context;
    icu.setStackLimit(copy, stackLimit, &status);
    if (check) {
        icu.setMatchCallback(copy, stanzaq_match_callback, regex, &status);
        icu.setFindProgressCallback(copy, stanzaq_find_progress_callback, regex, &status);
    }
    if (U_FAILURE(status)) {
        stanzaq_regex_close(regex);
        return NULL;
    }
    return regex;
}

void stanzaq_regex_close(stanzaq_regex *regex) {
    if (!regex) return;
    icu.close(regex->regex);
    free(regex);
}

int32_t stanzaq_regex_find(stanzaq_regex *regex, const uint16_t *text, int32_t length, int32_t timeLimit,
                           int32_t *error) {
    static const UChar empty[1] = {0};
    UErrorCode status = U_ZERO_ERROR;
    icu.setTimeLimit(regex->regex, timeLimit, &status);
    icu.setText(regex->regex, length > 0 ? (const UChar *)text : empty, length, &status);
    UBool found = U_SUCCESS(status) ? icu.find(regex->regex, 0, &status) : 0;
    *error = (int32_t)status;
    switch (status) {
    case U_ZERO_ERROR: return found ? 1 : 0;
    case U_REGEX_TIME_OUT: return STANZAQ_REGEX_TIME_OUT;
    case U_REGEX_STOPPED_BY_CALLER: return STANZAQ_REGEX_STOPPED;
    case U_REGEX_STACK_OVERFLOW: return STANZAQ_REGEX_STACK_OVERFLOW;
    default: return U_SUCCESS(status) ? (found ? 1 : 0) : STANZAQ_REGEX_OTHER_ERROR;
    }
}

const char *stanzaq_icu_error_name(int32_t error) {
    return u_errorName((UErrorCode)error);
}

void stanzaq_icu_version(uint8_t version[4]) {
    u_getVersion(version);
}

const char *stanzaq_icu_built_version(void) {
    return U_ICU_VERSION;
}
