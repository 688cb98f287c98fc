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

/// How common each byte is in XMPP logs and stanzas, 0 (never seen) to 255
/// (the space): the real-software log fixtures and the XEP corpus, counted by
/// benchmarks/byte-commonness.py.
static const uint8_t stanzaq_byte_commonness[256] = {
      0,   0,   0,   0,   0,   0,   0,   0,   0,  17,  94,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
    255,  24,  71,  20,   6,   5,  15,  95,  23,  23,   7,  11,  51,  71,  63,  76,
     94,  85,  80,  72,  70,  76,  70,  68,  67,  70,  82,  17,  83,  78,  84,   6,
     34,  26,  17,  26,  25,  26,  18,  17,  15,  23,  12,  12,  17,  20,  27,  19,
     23,  12,  25,  29,  28,  20,  13,  12,  12,  13,  13,  22,  13,  23,   1,  28,
      8, 113,  72,  84,  85, 151,  58,  63,  61, 106,  39,  34, 103,  89, 105, 117,
     91,  38, 113, 110, 119,  77,  49,  29,  61,  56,  17,  21,  11,  21,   1,   0,
      5,   1,   1,   1,   0,   1,   1,   0,   1,   1,   1,   1,   0,   0,   1,   1,
      1,   1,   1,   1,   1,   0,   0,   3,   3,   1,   3,   0,   3,   1,   0,   5,
      1,   1,   1,   1,   1,   3,   3,   1,   1,   5,   1,   1,   3,   0,   0,   1,
      1,   1,   1,   1,   1,   1,   0,   7,   1,   1,   1,   0,   3,   0,   0,   0,
      0,   0,   7,   6,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   1,   0,
      1,   1,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   3,   1,   0,   1,   4,   0,   0,   0,   0,   0,   0,   0,   0,   1,
      5,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0
};

/// How common the needle's byte at `at` is: a caseless letter's commoner case.
static int stanzaq_commonness(const uint8_t *bytes, int caseless, ptrdiff_t at) {
    uint8_t byte = bytes[at];
    int other = caseless && ((byte | 32) >= 'a' && (byte | 32) <= 'z') ? stanzaq_byte_commonness[byte ^ 32] : 0;
    return stanzaq_byte_commonness[byte] > other ? stanzaq_byte_commonness[byte] : other;
}

stanzaq_needle stanzaq_needle_make(const uint8_t *bytes, ptrdiff_t length, int caseless) {
    stanzaq_needle needle = { bytes, length, caseless, 0, length > 0 ? length - 1 : 0 };
    if (length < 2) return needle;
    // The rarest, then the rarest of the others (the first of equals).
    ptrdiff_t rarest = 0, next = 1;
    if (stanzaq_commonness(bytes, caseless, 1) < stanzaq_commonness(bytes, caseless, 0)) { rarest = 1; next = 0; }
    for (ptrdiff_t at = 2; at < length; at++) {
        int commonness = stanzaq_commonness(bytes, caseless, at);
        if (commonness < stanzaq_commonness(bytes, caseless, rarest)) { next = rarest; rarest = at; }
        else if (commonness < stanzaq_commonness(bytes, caseless, next)) next = at;
    }
    needle.at = rarest < next ? rarest : next;
    needle.at2 = rarest < next ? next : rarest;
    return needle;
}

/// What the block loops compare: a needle's bytes `at` and `at2` (its first
/// and last if those are not two of its places), each a letter with its case
/// bit set where the needle is caseless, and the bit that is then set.
typedef struct {
    ptrdiff_t at, at2;
    uint8_t first, last, firstFold, lastFold;
} stanzaq_ends;

static stanzaq_ends stanzaq_ends_of(const stanzaq_needle *needle) {
    ptrdiff_t at = needle->at, at2 = needle->at2;
    if (!(0 <= at && at <= at2 && at2 < needle->length)) { at = 0; at2 = needle->length - 1; }
    uint8_t first = needle->bytes[at], last = needle->bytes[at2];
    int firstLetter = needle->caseless && ((first | 32) >= 'a' && (first | 32) <= 'z');
    int lastLetter = needle->caseless && ((last | 32) >= 'a' && (last | 32) <= 'z');
    stanzaq_ends ends = {
        at, at2,
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
/// needle's two bytes the loop compares are) where a needle is whole, or -1:
/// out of the block loop, so that its few values stay in registers (inlined,
/// it kept `i` on the stack, and the block loop was the slower for it).
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
// where a needle's two bytes `at` and `at2` are, all needles' together, then
// at each such place, in order, the needles compared in full.
// It is inlined into a version for each count of needles up to six, the
// prefilter's usual sets (a literal, `&#`, a stream header's start, and a
// format's line-end marks): with the count known, the needles' loops are
// unrolled and their masks stay in registers, where a loop over the needles
// reloaded them for every block.
#define STANZAQ_DEFINE_FIND_LITERALS(NAME, TARGET, VECTOR, WIDTH, LOADU, SET1, CMPEQ, OR, AND, MOVEMASK, REST) \
TARGET static inline __attribute__((always_inline)) ptrdiff_t NAME##_of(const uint8_t *base, ptrdiff_t from, ptrdiff_t end, \
        const stanzaq_needle *needles, int count, ptrdiff_t longest, int folds, int *which) { \
    VECTOR first[STANZAQ_MAX_NEEDLES], last[STANZAQ_MAX_NEEDLES], firstFold[STANZAQ_MAX_NEEDLES], lastFold[STANZAQ_MAX_NEEDLES]; \
    ptrdiff_t firstAt[STANZAQ_MAX_NEEDLES], lastAt[STANZAQ_MAX_NEEDLES]; \
    for (int n = 0; n < count; n++) { \
        stanzaq_ends ends = stanzaq_ends_of(&needles[n]); \
        first[n] = SET1((char)ends.first); last[n] = SET1((char)ends.last); \
        firstFold[n] = SET1((char)ends.firstFold); lastFold[n] = SET1((char)ends.lastFold); \
        firstAt[n] = ends.at; lastAt[n] = ends.at2; \
    } \
    ptrdiff_t i = from; \
    for (; i + WIDTH + longest - 1 <= end; i += WIDTH) { \
        VECTOR hits; \
        for (int n = 0; n < count; n++) { \
            const VECTOR firsts = LOADU((const VECTOR *)(const void *)(base + i + firstAt[n])); \
            const VECTOR lasts = LOADU((const VECTOR *)(const void *)(base + i + lastAt[n])); \
            const VECTOR found = AND(CMPEQ(folds ? OR(firsts, firstFold[n]) : firsts, first[n]), \
                                     CMPEQ(folds ? OR(lasts, lastFold[n]) : lasts, last[n])); \
            hits = n == 0 ? found : OR(hits, found); \
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
    /* Without a caseless needle, no case bit is set before the comparisons, a step saved at each. */ \
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

// The count, written once for each vector width: two blocks a step, each
// match subtracting -1 from a byte lane, so that a lane holds at most 254
// after 127 steps, when the lanes are summed (`psadbw`) and emptied.
#define STANZAQ_DEFINE_COUNT_BYTE(NAME, TARGET, VECTOR, WIDTH, LOADU, SET1, ZERO, CMPEQ, SUB, SUM, REST) \
TARGET static ptrdiff_t NAME(const uint8_t *base, ptrdiff_t count, uint8_t byte) { \
    ptrdiff_t i = 0, found = 0; \
    const VECTOR wanted = SET1((char)byte), zero = ZERO(); \
    while (count - i >= 2 * WIDTH) { \
        ptrdiff_t steps = (count - i) / (2 * WIDTH); \
        if (steps > 127) steps = 127; \
        VECTOR lanes = zero; \
        for (; steps > 0; steps--, i += 2 * WIDTH) { \
            lanes = SUB(lanes, CMPEQ(LOADU((const VECTOR *)(const void *)(base + i)), wanted)); \
            lanes = SUB(lanes, CMPEQ(LOADU((const VECTOR *)(const void *)(base + i + WIDTH)), wanted)); \
        } \
        found += SUM(lanes, zero); \
    } \
    return found + REST; \
}

/// The bytes one at a time (after the blocks, or without SSE2).
static ptrdiff_t stanzaq_count_byte_tail(const uint8_t *base, ptrdiff_t count, uint8_t byte) {
    ptrdiff_t found = 0;
    for (ptrdiff_t i = 0; i < count; i++) found += base[i] == byte;
    return found;
}

#if defined(__SSE2__)
static inline ptrdiff_t stanzaq_lane_sum_sse2(__m128i lanes, __m128i zero) {
    const __m128i sums = _mm_sad_epu8(lanes, zero);
    return _mm_cvtsi128_si32(sums) + _mm_extract_epi16(sums, 4);
}
STANZAQ_DEFINE_COUNT_BYTE(stanzaq_count_byte_sse2, , __m128i, 16, _mm_loadu_si128, _mm_set1_epi8, _mm_setzero_si128,
                          _mm_cmpeq_epi8, _mm_sub_epi8, stanzaq_lane_sum_sse2,
                          stanzaq_count_byte_tail(base + i, count - i, byte))
#endif

#if defined(STANZAQ_HAVE_AVX2_VERSION)
__attribute__((target("avx2"))) static inline ptrdiff_t stanzaq_lane_sum_avx2(__m256i lanes, __m256i zero) {
    const __m256i sums = _mm256_sad_epu8(lanes, zero);
    return _mm256_extract_epi64(sums, 0) + _mm256_extract_epi64(sums, 1)
        + _mm256_extract_epi64(sums, 2) + _mm256_extract_epi64(sums, 3);
}
STANZAQ_DEFINE_COUNT_BYTE(stanzaq_count_byte_avx2, __attribute__((target("avx2"))), __m256i, 32, _mm256_loadu_si256,
                          _mm256_set1_epi8, _mm256_setzero_si256, _mm256_cmpeq_epi8, _mm256_sub_epi8, stanzaq_lane_sum_avx2,
                          stanzaq_count_byte_sse2(base + i, count - i, byte))
#endif

ptrdiff_t stanzaq_count_byte(const uint8_t *base, ptrdiff_t count, uint8_t byte) {
#if defined(STANZAQ_HAVE_AVX2_VERSION)
    if (count >= 256 && __builtin_cpu_supports("avx2")) return stanzaq_count_byte_avx2(base, count, byte);
#endif
#if defined(__SSE2__)
    return stanzaq_count_byte_sse2(base, count, byte);
#else
    return stanzaq_count_byte_tail(base, count, byte);
#endif
}
