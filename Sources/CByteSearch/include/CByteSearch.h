#ifndef STANZAQ_C_BYTE_SEARCH_H
#define STANZAQ_C_BYTE_SEARCH_H

// Byte searches, sixteen bytes at a time: for the stanza boundary scanner and
// the cutting of logs into parts, a byte count for the line numbers of the
// parts, and a search back for the reader's look at what it has forgotten.
//
// Why C: the scanner spends its time finding the next of a few bytes a few
// bytes away (inside a start tag, the next quote or `>` is about ten bytes on),
// where a call to memchr costs more than it saves and a byte-by-byte loop costs
// several instructions a byte. SSE2 compares sixteen bytes against each byte
// looked for and turns the result into a bit mask (`pmovmskb`); Swift's SIMD
// types have no such mask, so the loop is written with the intrinsics here,
// `static inline` so that Swift's optimiser inlines it into the scanner.
// SSE2 is part of every x86-64 processor; elsewhere the plain loops are used.

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// The offset of the first byte in [from, end) of `base` that is `a`, `b`, `c`
/// or `d`, or `end` if there is none.
static inline ptrdiff_t stanzaq_find_any4(const uint8_t *base, ptrdiff_t from, ptrdiff_t end,
                                          uint8_t a, uint8_t b, uint8_t c, uint8_t d) {
    ptrdiff_t i = from;
#if defined(__SSE2__)
    const __m128i va = _mm_set1_epi8((char)a), vb = _mm_set1_epi8((char)b);
    const __m128i vc = _mm_set1_epi8((char)c), vd = _mm_set1_epi8((char)d);
    for (; i + 16 <= end; i += 16) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(base + i));
        const __m128i found = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(bytes, va), _mm_cmpeq_epi8(bytes, vb)),
                                           _mm_or_si128(_mm_cmpeq_epi8(bytes, vc), _mm_cmpeq_epi8(bytes, vd)));
        const unsigned mask = (unsigned)_mm_movemask_epi8(found);
        if (mask != 0) return i + __builtin_ctz(mask);
    }
#endif
    for (; i < end; i++) {
        const uint8_t byte = base[i];
        if (byte == a || byte == b || byte == c || byte == d) return i;
    }
    return end;
}

/// The offset of the first `byte` in [from, end) of `base`, or `end` if there
/// is none: sixteen bytes at a time for the first 64, then memchr, which is
/// faster over long runs but costs more to call than a near byte takes to find.
static inline ptrdiff_t stanzaq_find_byte(const uint8_t *base, ptrdiff_t from, ptrdiff_t end, uint8_t byte) {
    ptrdiff_t i = from;
#if defined(__SSE2__)
    const __m128i wanted = _mm_set1_epi8((char)byte);
    const ptrdiff_t near = (end - from > 64) ? from + 64 : end;
    for (; i + 16 <= near; i += 16) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(base + i));
        const unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted));
        if (mask != 0) return i + __builtin_ctz(mask);
    }
#endif
    if (end - i < 16) {
        for (; i < end; i++) if (base[i] == byte) return i;
        return end;
    }
    const void *found = memchr(base + i, byte, (size_t)(end - i));
    return found ? (const uint8_t *)found - base : end;
}

/// The offset of the last `byte` among the `count` bytes at `base`, or -1 if
/// there is none: sixteen bytes at a time from the end. (A reader that forgets
/// the bytes of a stanza looks for the line feed that starts the last line.)
static inline ptrdiff_t stanzaq_find_last_byte(const uint8_t *base, ptrdiff_t count, uint8_t byte) {
    ptrdiff_t i = count;
#if defined(__SSE2__)
    const __m128i wanted = _mm_set1_epi8((char)byte);
    for (; i >= 16; i -= 16) {
        const __m128i bytes = _mm_loadu_si128((const __m128i *)(const void *)(base + i - 16));
        const unsigned mask = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, wanted));
        if (mask != 0) return i - 16 + (31 - __builtin_clz(mask));
    }
#endif
    while (i > 0) {
        i--;
        if (base[i] == byte) return i;
    }
    return -1;
}

/// Whether the `length` bytes at `text` are those of `needle`; `caseless`:
/// ASCII letters in either case.
static inline int stanzaq_literal_at(const uint8_t *text, const uint8_t *needle, ptrdiff_t length, int caseless) {
    for (ptrdiff_t i = 0; i < length; i++) {
        uint8_t a = text[i], b = needle[i];
        if (caseless) {
            if (a >= 'A' && a <= 'Z') a += 32;
            if (b >= 'A' && b <= 'Z') b += 32;
        }
        if (a != b) return 0;
    }
    return 1;
}

/// The offset of the first occurrence of the `length` bytes of `needle` in
/// [from, end) of `base`, or `end` if there is none; `caseless`: ASCII letters
/// in either case. The prefilter's search (stanzaq(1), "Skipping what cannot
/// match"): sixteen places at a time, those whose first and last bytes are the
/// needle's (a letter compared with its case bit set, ignoring case), then a
/// comparison of the rest at each. Two bytes a needle's length apart rule out
/// nearly every place where one common byte (memchr's way) would stop often.
static inline ptrdiff_t stanzaq_find_literal(const uint8_t *base, ptrdiff_t from, ptrdiff_t end,
                                             const uint8_t *needle, ptrdiff_t length, int caseless) {
    if (length <= 0) return from;
    ptrdiff_t i = from;
    const ptrdiff_t lastStart = end - length;   // the last place a needle may start
#if defined(__SSE2__)
    uint8_t first = needle[0], last = needle[length - 1];
    int firstLetter = caseless && ((first | 32) >= 'a' && (first | 32) <= 'z');
    int lastLetter = caseless && ((last | 32) >= 'a' && (last | 32) <= 'z');
    const __m128i firstWanted = _mm_set1_epi8((char)(firstLetter ? (first | 32) : first));
    const __m128i lastWanted = _mm_set1_epi8((char)(lastLetter ? (last | 32) : last));
    const __m128i firstFold = _mm_set1_epi8((char)(firstLetter ? 32 : 0));
    const __m128i lastFold = _mm_set1_epi8((char)(lastLetter ? 32 : 0));
    for (; i + 15 <= lastStart; i += 16) {
        __m128i firsts = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(base + i)), firstFold);
        __m128i lasts = _mm_or_si128(_mm_loadu_si128((const __m128i *)(const void *)(base + i + length - 1)), lastFold);
        unsigned mask = (unsigned)_mm_movemask_epi8(_mm_and_si128(_mm_cmpeq_epi8(firsts, firstWanted),
                                                                  _mm_cmpeq_epi8(lasts, lastWanted)));
        while (mask) {
            int bit = __builtin_ctz(mask);
            // (Setting bit 5 also takes `@` for `` ` `` and so on: the full comparison decides.)
            if (stanzaq_literal_at(base + i + bit, needle, length, caseless)) return i + bit;
            mask &= mask - 1;
        }
    }
#endif
    for (; i <= lastStart; i++) {
        if (stanzaq_literal_at(base + i, needle, length, caseless)) return i;
    }
    return end;
}

/// A run of bytes to look for (``stanzaq_find_literals``); `caseless`: ASCII
/// letters in either case; `at` and `at2`: the two bytes a search compares
/// first, `at` before `at2` (``stanzaq_needle_make``: its rarest).
typedef struct {
    const uint8_t *bytes;
    ptrdiff_t length;
    int caseless;
    ptrdiff_t at, at2;
} stanzaq_needle;

/// A needle of the `length` bytes at `bytes`, searched for by its two rarest
/// bytes in XMPP logs and stanzas, as ripgrep's memchr does: `error`'s `rr`,
/// not its `e` and `r` four bytes apart, which the words of logs put together
/// far more often (each such place is compared in full, and those comparisons
/// were a large part of the search).
stanzaq_needle stanzaq_needle_make(const uint8_t *bytes, ptrdiff_t length, int caseless);

/// The offset of the first place in [from, end) of `base` where one of the
/// `count` needles starts (and ends by `end`), with the index of that needle in
/// `*which` (the lowest, of several there); `end` and -1 if there is none.
/// The prefilter's search: every needle tested at once, 32 places at a time
/// with AVX2 where the processor has it, else 16, by their two bytes `at`
/// and `at2` (as ``stanzaq_find_literal`` by its first and last), so that
/// each byte of a log is looked at once for all needles, not once a needle.
ptrdiff_t stanzaq_find_literals(const uint8_t *base, ptrdiff_t from, ptrdiff_t end, const stanzaq_needle *needles,
                                int count, int *which);

/// How many of the `count` bytes at `base` are `byte`: a line count of a
/// part of the input, or of the bytes between the windows of a selective
/// search, where memchr from one line feed to the next costs a call per line.
/// 64 bytes a step with AVX2 where the processor has it, else 32: the wider
/// step looks at twice the bytes for about the same work.
ptrdiff_t stanzaq_count_byte(const uint8_t *base, ptrdiff_t count, uint8_t byte);

#endif
