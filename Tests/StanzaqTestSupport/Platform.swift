// The C library for the tests, in the one place that names the platform: every
// test file that imports StanzaqTestSupport sees it from here.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Darwin)
@_exported import Darwin
#endif
