#ifndef STANZAQ_CICU_H
#define STANZAQ_CICU_H

// The system ICU's regular expressions (uregex, the engine NSRegularExpression
// wraps) and version, for Swift, with plain C types only.
//
// Why C: ICU's C functions are renamed by macros to carry the library's major
// version (uregex_open is uregex_open_72 on ICU 72), and Swift imports no such
// macro; ICU's headers are included by CICU.c alone, which is compiled against
// whatever ICU the system has.

#include <stdint.h>

/// A compiled expression with its matcher; one thread at a time.
typedef struct stanzaq_regex stanzaq_regex;

/// Results of stanzaq_regex_find other than a match (1) or none (0).
enum {
    STANZAQ_REGEX_TIME_OUT = -1,        // the time limit (ticks of 10,000 steps) was met
    STANZAQ_REGEX_STOPPED = -2,         // the check function asked to stop
    STANZAQ_REGEX_STACK_OVERFLOW = -3,  // the backtracking stack limit was met
    STANZAQ_REGEX_OTHER_ERROR = -4      // any other failure: see the error code
};

/// What the check function is called for.
enum {
    STANZAQ_REGEX_TICK = 0,      // every 10,000 steps (ICU's match callback)
    STANZAQ_REGEX_POSITION = 1   // every position a match is tried at (ICU's find-progress callback)
};

/// Called by ICU during a match, with the context given to stanzaq_regex_clone
/// and one of STANZAQ_REGEX_TICK, STANZAQ_REGEX_POSITION; 0 stops the match.
typedef int32_t (*stanzaq_regex_check)(const void *context, int32_t kind);

/// Compiles `pattern` (UTF-16), with ICU's UREGEX_CASE_INSENSITIVE if
/// `caseInsensitive`, no other flag. NULL, with ICU's error code in `error`,
/// for an invalid pattern. The result is only to be cloned from.
stanzaq_regex *stanzaq_regex_open(const uint16_t *pattern, int32_t length, int32_t caseInsensitive, int32_t *error);

/// A copy to match with (uregex_clone: may be called on several threads at
/// once), with a backtracking stack of at most `stackLimit` bytes and `check`
/// (may be NULL) called during matches. NULL on failure.
stanzaq_regex *stanzaq_regex_clone(const stanzaq_regex *regex, int32_t stackLimit, stanzaq_regex_check check,
                                   const void *context);

void stanzaq_regex_close(stanzaq_regex *regex);

/// Whether `regex` matches somewhere in `text` (UTF-16), within `timeLimit`
/// ticks of 10,000 saved backtracking states over the whole search (0: none):
/// 1 or 0, or one of the STANZAQ_REGEX_ results, with ICU's error code in
/// `error`. ICU keeps the pointer to `text` until the next call, and does not
/// read it.
int32_t stanzaq_regex_find(stanzaq_regex *regex, const uint16_t *text, int32_t length, int32_t timeLimit,
                           int32_t *error);

/// ICU's name for an error code, e.g. "U_REGEX_RULE_SYNTAX".
const char *stanzaq_icu_error_name(int32_t error);

/// The running ICU's version, e.g. {72, 1, 0, 0}.
void stanzaq_icu_version(uint8_t version[4]);

/// The version of ICU's headers stanzaq was built with, e.g. "72.1".
const char *stanzaq_icu_built_version(void);

#endif
