// A library user imports one module: the language, and the readers it queries.
// (The fuzz targets compile all three as one module, where there is nothing to import.)
#if canImport(StanzaXML)
@_exported import StanzaXML
#endif
#if canImport(StanzaLogs)
@_exported import StanzaLogs
#endif
