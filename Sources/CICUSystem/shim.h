/* The system's ICU (Debian: libicu-dev; pkg-config icu-i18n): the one libxml2
 * already loads. This module only links it and gives its C target, CICU, the
 * compiler flags of pkg-config; nothing here is ICU's own. ICU's headers stay
 * inside CICU.c: Foundation, which the tests import, carries a clang module
 * with ICU's types under the same names, and the two would clash. */
#include <stdint.h>
