// Most searches are `static inline` in include/CByteSearch.h. The search for
// several needles at once is here: it has a version for AVX2, chosen when the
// processor has it, which an inline function in a header Swift imports cannot
// have.
#include "CByteSearch.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>
#define STANZAQ_HAVE_AVX2_VERSION 1
#endif

enum { STANZAQ_MAX_NEEDLES = 8 };

/// What the block loops compare: each needle's first and last byte (a letter
/// with its case bit set, ignoring case) and the bit that is set.
typedef struct {
    uint8_t first, last, firstFold, lastFold;
} stanzaq_ends;

static stanzaq_ends stanzaq_ends_of(const stanzaq_needle *needle) {
    uint8_t first = needle->bytes[0], last = needle->bytes[needle->length - 1];
    int firstLetter = needle->caseless && ((first | 32) >= 'a' && (first | 32) <= 'z');
    int lastLetter = needle->caseless && ((last | 32) >= 'a' && (last | 32) <= 'z');
    stanzaq_ends ends = {
        (uint8_t)(firstLetter ? (first | 32) : first), (uint8_t)(lastLetter ? (last | 32) : last),
        (uint8_t)(firstLetter ? 32 : 0), (uint8_t)(lastLetter ? 32 : 0)
    };
    return ends;
}

/// The needle (lowest index first) that starts at `at` and ends by `end`, or -1.
static inline int stanzaq_needle_at(const uint8_t *base, ptrdiff_t at, ptrdiff_t end, const stanzaq_needle *needles,
                                    int count, unsigned candidates) {
    for (int n = 0; n < count; n++) {
        if (!(candidates & (1u << n))) continue;
        if (at + needles[n].length <= end && stanzaq_literal_at(base + at, needles[n].bytes, needles[n].length, needles[n].caseless)) return n;
    }
    return -1;
}

/// Places from `i` on, one at a time, up to `end`.
static ptrdiff_t stanzaq_find_literals_tail(const uint8_t *base, ptrdiff_t i, ptrdiff_t end,
                                            const stanzaq_needle *needles, int count, int *which) {
    for (; i < end; i++) {
        int n = stanzaq_needle_at(base, i, end, needles, count, ~0u);
        if (n >= 0) { *which = n; return i; }
    }
    return end;
}

/// The first place of the block at `i` among `any` (a bit a place where some
/// needle's first and last bytes are) where a needle is whole, or -1: out of
/// the block loop, so that its few values stay in registers (inlined, it kept
/// `i` on the stack: 6.0 to 4.2 million instructions for 10 MB with one needle).
__attribute__((noinline)) static ptrdiff_t stanzaq_verify_candidates(const uint8_t *base, ptrdiff_t i, ptrdiff_t end,
        const stanzaq_needle *needles, int count, unsigned any, int *which) {
    while (any) {
        int bit = __builtin_ctz(any);
        int n = stanzaq_needle_at(base, i + bit, end, needles, count, ~0u);
        if (n >= 0) { *which = n; return i + bit; }
        any &= any - 1;
    }
    return -1;
}

// One block loop, written once for each vector width: the places of a block
// whose first and last bytes are a needle's (a mask a needle), then at each
// such place, in order, the needles that may start there compared in full.
// It is inlined into a version for each count of needles up to six, the
// prefilter's usual sets (a literal, `&#`, a stream header's start, and a
// format's line-end marks): with the count known, the needles' loops are
// unrolled and their masks stay in registers (callgrind: 1.8 instructions a byte of a log with three needles
// before, 1.1 after).
#define STANZAQ_DEFINE_FIND_LITERALS(NAME, TARGET, VECTOR, WIDTH, LOADU, SET1, CMPEQ, OR, AND, MOVEMASK, REST) \
TARGET static inline __attribute__((always_inline)) ptrdiff_t NAME##_of(const uint8_t *base, ptrdiff_t from, ptrdiff_t end, \
        const stanzaq_needle *needles, int count, ptrdiff_t longest, int folds, int *which) { \
    VECTOR first[STANZAQ_MAX_NEEDLES], last[STANZAQ_MAX_NEEDLES], firstFold[STANZAQ_MAX_NEEDLES], lastFold[STANZAQ_MAX_NEEDLES]; \
    ptrdiff_t lastAt[STANZAQ_MAX_NEEDLES]; \
    for (int n = 0; n < count; n++) { \
        stanzaq_ends ends = stanzaq_ends_of(&needles[n]); \
        first[n] = SET1((char)ends.first); last[n] = SET1((char)ends.last); \
        firstFold[n] = SET1((char)ends.firstFold); lastFold[n] = SET1((char)ends.lastFold); \
        lastAt[n] = needles[n].length - 1; \
    } \
    ptrdiff_t i = from; \
    for (; i + WIDTH + longest - 1 <= end; i += WIDTH) { \
        const VECTOR at = LOADU((const VECTOR *)(const void *)(base + i)); \
        VECTOR hits = AND(CMPEQ(folds ? OR(at, firstFold[0]) : at, first[0]), \
                          CMPEQ(folds ? OR(LOADU((const VECTOR *)(const void *)(base + i + lastAt[0])), lastFold[0]) \
                                      : LOADU((const VECTOR *)(const void *)(base + i + lastAt[0])), last[0])); \
        for (int n = 1; n < count; n++) { \
            const VECTOR lasts = LOADU((const VECTOR *)(const void *)(base + i + lastAt[n])); \
            hits = OR(hits, AND(CMPEQ(folds ? OR(at, firstFold[n]) : at, first[n]), \
                                CMPEQ(folds ? OR(lasts, lastFold[n]) : lasts, last[n]))); \
        } \
        const unsigned any = (unsigned)MOVEMASK(hits); \
        if (__builtin_expect(any != 0, 0)) { \
            ptrdiff_t found = stanzaq_verify_candidates(base, i, end, needles, count, any, which); \
            if (found >= 0) return found; \
        } \
    } \
    return REST; \
} \
TARGET static ptrdiff_t NAME(const uint8_t *base, ptrdiff_t from, ptrdiff_t end, const stanzaq_needle *needles, \
                             int count, ptrdiff_t longest, int *which) { \
    /* Without a caseless needle, no case bit is set before the comparisons: a fifth of them. */ \
    int folds = 0; \
    for (int n = 0; n < count; n++) folds |= needles[n].caseless; \
    if (!folds) { \
        switch (count) { \
        case 1: return NAME##_of(base, from, end, needles, 1, longest, 0, which); \
        case 2: return NAME##_of(base, from, end, needles, 2, longest, 0, which); \
        case 3: return NAME##_of(base, from, end, needles, 3, longest, 0, which); \
        default: break; \
        } \
    } \
    switch (count) { \
    case 1: return NAME##_of(base, from, end, needles, 1, longest, 1, which); \
    case 2: return NAME##_of(base, from, end, needles, 2, longest, 1, which); \
    case 3: return NAME##_of(base, from, end, needles, 3, longest, 1, which); \
    case 4: return NAME##_of(base, from, end, needles, 4, longest, 1, which); \
    case 5: return NAME##_of(base, from, end, needles, 5, longest, 1, which); \
    case 6: return NAME##_of(base, from, end, needles, 6, longest, 1, which); \
    default: return NAME##_of(base, from, end, needles, count, longest, 1, which); \
    } \
}

#if defined(__SSE2__)
STANZAQ_DEFINE_FIND_LITERALS(stanzaq_find_literals_sse2, , __m128i, 16, _mm_loadu_si128, _mm_set1_epi8, _mm_cmpeq_epi8,
                             _mm_or_si128, _mm_and_si128, _mm_movemask_epi8,
                             stanzaq_find_literals_tail(base, i, end, needles, count, which))
#endif

#if defined(STANZAQ_HAVE_AVX2_VERSION)
STANZAQ_DEFINE_FIND_LITERALS(stanzaq_find_literals_avx2, __attribute__((target("avx2"))), __m256i, 32, _mm256_loadu_si256,
                             _mm256_set1_epi8, _mm256_cmpeq_epi8, _mm256_or_si256, _mm256_and_si256, _mm256_movemask_epi8,
                             stanzaq_find_literals_sse2(base, i, end, needles, count, longest, which))
#endif

ptrdiff_t stanzaq_find_literals(const uint8_t *base, ptrdiff_t from, ptrdiff_t end, const stanzaq_needle *needles,
                                int count, int *which) {
    *which = -1;
    ptrdiff_t longest = 1;
    for (int n = 0; n < count; n++) {
        if (needles[n].length <= 0) { *which = n; return from; }
        if (needles[n].length > longest) longest = needles[n].length;
    }
    if (count > STANZAQ_MAX_NEEDLES) {
        // More than the block loops keep: one search a needle, the first hit of all.
        ptrdiff_t found = end;
        for (int n = 0; n < count; n++) {
            ptrdiff_t at = stanzaq_find_literal(base, from, found + needles[n].length - 1 < end ? found + needles[n].length - 1 : end,
                                                needles[n].bytes, needles[n].length, needles[n].caseless);
            if (at < found) { found = at; *which = n; }
        }
        return found;
    }
#if defined(STANZAQ_HAVE_AVX2_VERSION)
    if (__builtin_cpu_supports("avx2")) return stanzaq_find_literals_avx2(base, from, end, needles, count, longest, which);
#endif
#if defined(__SSE2__)
    return stanzaq_find_literals_sse2(base, from, end, needles, count, longest, which);
#else
    return stanzaq_find_literals_tail(base, from, end, needles, count, which);
#endif
}

#if defined(STANZAQ_HAVE_AVX2_VERSION)
/// Two blocks of 32 a step, each match subtracting -1 from a byte lane: a lane
/// holds at most 254 after 127 steps, when the lanes are summed (`vpsadbw`) and emptied.
__attribute__((target("avx2"))) static ptrdiff_t stanzaq_count_byte_avx2(const uint8_t *base, ptrdiff_t count, uint8_t byte) {
    ptrdiff_t i = 0, found = 0;
    const __m256i wanted = _mm256_set1_epi8((char)byte), zero = _mm256_setzero_si256();
    while (count - i >= 64) {
        ptrdiff_t steps = (count - i) / 64;
        if (steps > 127) steps = 127;
        __m256i lanes = zero;
        for (; steps > 0; steps--, i += 64) {
            const __m256i low = _mm256_loadu_si256((const __m256i *)(const void *)(base + i));
            const __m256i high = _mm256_loadu_si256((const __m256i *)(const void *)(base + i + 32));
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(low, wanted));
            lanes = _mm256_sub_epi8(lanes, _mm256_cmpeq_epi8(high, wanted));
        }
        const __m256i sums = _mm256_sad_epu8(lanes, zero);
        found += _mm256_extract_epi64(sums, 0) + _mm256_extract_epi64(sums, 1)
            + _mm256_extract_epi64(sums, 2) + _mm256_extract_epi64(sums, 3);
    }
    return found + stanzaq_count_byte(base + i, count - i, byte);
}
#endif

ptrdiff_t stanzaq_count_byte_long(const uint8_t *base, ptrdiff_t count, uint8_t byte) {
#if defined(STANZAQ_HAVE_AVX2_VERSION)
    if (count >= 256 && __builtin_cpu_supports("avx2")) return stanzaq_count_byte_avx2(base, count, byte);
#endif
    return stanzaq_count_byte(base, count, byte);
}
