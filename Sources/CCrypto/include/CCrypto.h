#ifndef STANZAQ_CCRYPTO_H
#define STANZAQ_CCRYPTO_H

// SHA-256 (for `|uuidcast`), the way each platform provides it: OpenSSL's
// libcrypto on Linux, CommonCrypto on Apple's systems.

#include <stddef.h>
#include <stdint.h>

/// Writes the SHA-256 digest of `length` bytes at `data` to `digest`; returns
/// 1, or 0 if no implementation could be loaded (then `digest` is untouched).
int32_t stanzaq_sha256(const uint8_t *data, size_t length, uint8_t digest[32]);

/// Why stanzaq_sha256 returned 0: the loader's message.
const char *stanzaq_sha256_error(void);

#endif
