#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, and <libxml/encoding.h> then includes
 * ICU's headers, which clash with the ICU module Foundation ships. Swift never
 * touches xmlCharEncodingHandler (the only struct those headers shape), so
 * hide them. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
