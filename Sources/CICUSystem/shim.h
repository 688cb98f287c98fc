/* The system's ICU (Debian: libicu-dev; pkg-config icu-uc): the one libxml2
 * already loads. This module only links libicuuc (libicui18n, see CICU.c, is
 * loaded when first needed on Linux, linked by Package.swift elsewhere) and
 * gives its C target, CICU, the compiler flags of pkg-config; nothing here is
 * ICU's own. ICU's headers stay
 * inside CICU.c: Foundation, which the tests import, carries a clang module
 * with ICU's types under the same names, and the two would clash. */
#include <stdint.h>
