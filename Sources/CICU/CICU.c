#include "CICU.h"

#include <stdlib.h>
#include <unicode/uregex.h>
#include <unicode/uversion.h>
#include <unicode/utypes.h>

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
    UErrorCode status = U_ZERO_ERROR;
    UParseError parseError;
    static const UChar empty[1] = {0};
    URegularExpression *compiled = uregex_open(length > 0 ? (const UChar *)pattern : empty, length,
                                               caseInsensitive ? UREGEX_CASE_INSENSITIVE : 0, &parseError, &status);
    *error = (int32_t)status;
    if (U_FAILURE(status)) {
        if (compiled) uregex_close(compiled);
        return NULL;
    }
    stanzaq_regex *regex = calloc(1, sizeof *regex);
    if (!regex) {
        uregex_close(compiled);
        *error = (int32_t)U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    regex->regex = compiled;
    return regex;
}

stanzaq_regex *stanzaq_regex_clone(const stanzaq_regex *original, int32_t stackLimit, stanzaq_regex_check check,
                                   const void *context) {
    UErrorCode status = U_ZERO_ERROR;
    URegularExpression *copy = uregex_clone(original->regex, &status);
    if (U_FAILURE(status)) return NULL;
    stanzaq_regex *regex = calloc(1, sizeof *regex);
    if (!regex) {
        uregex_close(copy);
        return NULL;
    }
    regex->regex = copy;
    regex->check = check;
    regex->context = context;
    uregex_setStackLimit(copy, stackLimit, &status);
    if (check) {
        uregex_setMatchCallback(copy, stanzaq_match_callback, regex, &status);
        uregex_setFindProgressCallback(copy, stanzaq_find_progress_callback, regex, &status);
    }
    if (U_FAILURE(status)) {
        stanzaq_regex_close(regex);
        return NULL;
    }
    return regex;
}

void stanzaq_regex_close(stanzaq_regex *regex) {
    if (!regex) return;
    uregex_close(regex->regex);
    free(regex);
}

int32_t stanzaq_regex_find(stanzaq_regex *regex, const uint16_t *text, int32_t length, int32_t timeLimit,
                           int32_t *error) {
    static const UChar empty[1] = {0};
    UErrorCode status = U_ZERO_ERROR;
    uregex_setTimeLimit(regex->regex, timeLimit, &status);
    uregex_setText(regex->regex, length > 0 ? (const UChar *)text : empty, length, &status);
    UBool found = U_SUCCESS(status) ? uregex_find(regex->regex, 0, &status) : 0;
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
