#ifndef STANZAQ_CZSTD_H
#define STANZAQ_CZSTD_H

// zstd's streaming decompression, from the system's libzstd loaded when a zstd
// input first comes (Debian installs the library, libzstd1, everywhere, and its
// header, libzstd-dev, rarely): the few declarations stanzaq uses, its own.

#include <stddef.h>
#include <stdint.h>

// The buffers ZSTD_decompressStream reads from and writes to, as zstd.h 1.5
// defines them (lib/zstd.h, "Streaming"; unchanged since zstd 1.0).
typedef struct ZSTD_inBuffer_s {
  const void* src;    /**< start of input buffer */
  size_t size;        /**< size of input buffer */
  size_t pos;         /**< position where reading stopped. Will be updated. Necessarily 0 <= pos <= size */
} ZSTD_inBuffer;

typedef struct ZSTD_outBuffer_s {
  void*  dst;         /**< start of output buffer */
  size_t size;        /**< size of output buffer */
  size_t pos;         /**< position where writing stopped. Will be updated. Necessarily 0 <= pos <= size */
} ZSTD_outBuffer;

/// A decompression stream (zstd's ZSTD_DStream), ready for a frame; NULL if
/// libzstd could not be loaded (stanzaq_zstd_error says why) or has no memory.
void *stanzaq_zstd_create(void);

/// Frees a stream of stanzaq_zstd_create.
void stanzaq_zstd_free(void *stream);

/// ZSTD_decompressStream: 0 once a frame is decoded and flushed, else a hint
/// of the input wanted, or an error code (stanzaq_zstd_error_name is not NULL).
size_t stanzaq_zstd_decompress(void *stream, ZSTD_outBuffer *output, ZSTD_inBuffer *input);

/// The name of the error `code` is (ZSTD_getErrorName), NULL if it is none.
const char *stanzaq_zstd_error_name(size_t code);

/// Why libzstd could not be loaded: the loader's message ("" if it was).
const char *stanzaq_zstd_error(void);

#endif
