// The searches are `static inline` in include/CByteSearch.h; SwiftPM needs a
// source file to build a C target.
#include "CByteSearch.h"
