import Foundation
import StanzaqTestSupport
import XCTest

/// The answers Monal's code and Prosody's find() give, as a user sees them:
/// stdout, stderr and exit status, in text and JSON (stanzaq-query(7),
/// COMPATIBILITY).
final class FidelityCLITests: CLITestCase {
    let pass = """
        <iq xmlns='jabber:client' type='set'><query xmlns='jabber:iq:pass'><expire>600</expire><close/><proxy port='43253'>1.2.3.4</proxy></query></iq>
        """

    // 1. The namespace is the attribute xmlns.
    func testXmlnsAttribute() throws {
        try assertStanzaq(["@xmlns"], stdin: pass, stdout: "jabber:client\n", status: 0)
        try assertStanzaq(["-o", "json", "-e", "@xmlns", "-e", "{jabber:iq:pass}query@xmlns", "-e", "{jabber:iq:pass}query/proxy@xmlns"],
                          stdin: pass, stdout: #"["jabber:client","jabber:iq:pass","jabber:iq:pass"]"# + "\n", status: 0)
        try assertStanzaq(["{*}*<xmlns=jabber:iq:pass>$"], stdin: pass, stdout: "query\n", status: 0)
        try assertStanzaq(["--json", "{*}*<xmlns~^urn:>$"], stdin: pass, stdout: "", status: 1)
        try assertStanzaq(["/@xmlns"], stdin: "<a/>", stdout: "", status: 1)
    }

    // 2. double: decimal numbers only; overflow is infinity.
    func testDouble() throws {
        let xml = "<a v='info1' w='nan' x='0x1F' y='1e400' z='-1e400'/>"
        let queries = ["-e", "@v|double", "-e", "@w|double", "-e", "@x|double", "-e", "@y|double", "-e", "@z|double"]
        try assertStanzaq(queries, stdin: xml, stdout: "0\t0\t0\tinf\t-inf\n", status: 0)
        try assertStanzaq(["-o", "json"] + queries, stdin: xml, stdout: "[0,0,0,null,null]\n", status: 0)
        try assertStanzaq(["--strict", "@x|double"], stdin: xml, stdout: "",
                          stderr: "(standard input):stanza 1: query '@x|double': '0x1F' is not a finite decimal number (|double)\n", status: 2)
    }

    // 3. base64: never a decoded prefix.
    func testBase64() throws {
        let xml = "<a v='aGVsbG8=A' w='aGVsbG8=d29ybGQ=' x='aGVs bG8='/>"
        try assertStanzaq(["-j", "@v|base64"], stdin: xml, stdout: "", status: 1)
        try assertStanzaq(["-j", "@w|base64"], stdin: xml, stdout: "", status: 1)
        try assertStanzaq(["-j", "@x|base64"], stdin: xml, stdout: "hello", status: 0)
        try assertStanzaq(["-o", "json", "-e", "@v|base64", "-e", "@w|base64", "-e", "@x|base64"], stdin: xml,
                          stdout: #"[null,null,"aGVsbG8="]"# + "\n", status: 0)
        try assertStanzaq(["--strict", "-j", "@v|base64"], stdin: xml, stdout: "",
                          stderr: "(standard input):stanza 1: query '@v|base64': 'aGVsbG8=A' is not valid base64 (|base64)\n", status: 2)
    }

    // 4. uuid: exactly 8-4-4-4-12; uuidcast hashes anything else.
    func testUUID() throws {
        let xml = "<a v=' 3f2504e0-4f89-11d3-9a0c-0305e82c3301' w='+3f2504e-4f89-11d3-9a0c-0305e82c3301' x='3f2504e0-4f89-11d3-9a0c-0305e82c3301'/>"
        let queries = ["-e", "@v|uuid", "-e", "@w|uuid", "-e", "@x|uuid", "-e", "@v|uuidcast", "-e", "@w|uuidcast"]
        try assertStanzaq(queries, stdin: xml, stdout: "\t\t3F2504E0-4F89-11D3-9A0C-0305E82C3301\t2818F70B-D966-B743-39C2-926F0D4EF920\t"
                          + "3164BB2B-0019-7444-EDC0-E24F72D13245\n", status: 0)
        try assertStanzaq(["--json"] + queries, stdin: xml, stdout: #"[null,null,"3F2504E0-4F89-11D3-9A0C-0305E82C3301","#
                          + #""2818F70B-D966-B743-39C2-926F0D4EF920","3164BB2B-0019-7444-EDC0-E24F72D13245"]"# + "\n", status: 0)
    }

    // 5. datetime: ±hhmm.
    func testDatetimeWithoutColon() throws {
        let xml = "<a v='2002-09-10T23:08:25+0200' w='2002-09-10T23:08:25.5-0530'/>"
        try assertStanzaq(["-e", "@v|datetime", "-e", "@w|datetime"], stdin: xml,
                          stdout: "2002-09-10T21:08:25Z\t2002-09-11T04:38:25.5Z\n", status: 0)
        try assertStanzaq(["-o", "json", "--epoch", "-e", "@v|datetime", "-e", "@w|datetime"], stdin: xml,
                          stdout: "[1031692105,1031719105.5]\n", status: 0)
    }

    // 6. --strict validates; it never changes an answer, in any mode.
    func testStrictNeverChangesAnAnswer() throws {
        let xml = "<a v=' 1' w='18446744073709551615' d=' 2002-09-10T23:08:25Z' y='1e400' ok='7'/>"
        let queries = ["-e", "@v|bool", "-e", "@w|uint", "-e", "@d|datetime", "-e", "@y|double", "-e", "@ok|int"]
        try assertStanzaq(queries, stdin: xml, stdout: "false\t9223372036854775807\t\tinf\t7\n", status: 0)
        let prefix = "(standard input):stanza 1: query "
        try assertStanzaq(["--strict"] + queries, stdin: xml, stdout: "\t\t\t\t7\n", stderr: """
            \(prefix)'@v|bool': ' 1' is not a boolean (true, false, 1 or 0) (|bool)
            \(prefix)'@w|uint': '18446744073709551615' is not an integer from 0 to 9223372036854775807 (|uint)
            \(prefix)'@d|datetime': ' 2002-09-10T23:08:25Z' is not an XEP-0082 date and time (YYYY-MM-DDThh:mm:ss[.sss] then Z, ±hh:mm or ±hhmm) (|datetime)
            \(prefix)'@y|double': '1e400' is not a finite decimal number (|double)

            """, status: 2)
    }

    func testStrictChecksEveryResultInEveryMode() throws {
        let scratch = try ScratchDirectory()
        try scratch.write("m.xml", "<m><v>1</v><v>x</v></m><m><v>2</v></m>")
        let error = "m.xml:stanza 1: query 'v#|int': 'x' is not an integer from -9223372036854775808 to 9223372036854775807 (|int)\n"
        try assertStanzaq(["--first", "v#|int", "m.xml"], in: scratch.url, stdout: "1\n2\n", status: 0)
        try assertStanzaq(["--strict", "--first", "v#|int", "m.xml"], in: scratch.url, stdout: "2\n", stderr: error, status: 2)
        try assertStanzaq(["--strict", "-c", "v#|int", "m.xml"], in: scratch.url, stdout: "1\n", stderr: error, status: 2)
        try assertStanzaq(["--strict", "-s", "v#|int", "m.xml"], in: scratch.url, stdout: "<m><v>2</v></m>\n", stderr: error, status: 2)
        // -q exits 0 once a stanza has a result, even after an error, as grep -q does.
        try assertStanzaq(["--strict", "-q", "v#|int", "m.xml"], in: scratch.url, stdout: "", stderr: error, status: 0)
        try assertStanzaq(["--strict", "-e", "v#|int", "-e", "/$", "m.xml"], in: scratch.url, stdout: "\tm\n2\tm\n", stderr: error, status: 2)
        try assertStanzaq(["--strict", "--json", "-e", "v#|int", "-e", "/$", "m.xml"], in: scratch.url,
                          stdout: "[null,\"m\"]\n[2,\"m\"]\n", stderr: error, status: 2)
        // With -c, every query is checked, not only until one has a result (with two, -c counts
        // each distinct row: the first stanza's, its second column empty, and the second's).
        try assertStanzaq(["--strict", "-c", "-v", "-e", "v#", "-e", "v#|int", "m.xml"], in: scratch.url, stdout: "0\n", stderr: error, status: 2)
        try assertStanzaq(["--strict", "-c", "-e", "v#", "-e", "v#|int", "m.xml"], in: scratch.url, stdout: "1\t1\t\n1\t2\t2\n",
                          stderr: error, status: 2)
    }

    // 7. Format arguments are consumed in order across the queries.
    func testArgumentsAcrossQueries() throws {
        let xml = "<r><a v='x' id='1'/><a v='y' id='2'/></r>"
        try assertStanzaq(["-a", "x", "-e", "a<v=%@>@id", "-e", "a@id"], stdin: xml, stdout: "1\t1\n", status: 0)
        try assertStanzaq(["-a", "y", "-a", "x", "-o", "json", "-e", "a<v=%@>@id", "-e", "a<v=%@>@id"], stdin: xml,
                          stdout: #"["2","1"]"# + "\n", status: 0)
        try assertStanzaq(["-a", "x", "-a", "y", "-e", "a<v=%@>@id", "-e", "a@id"], stdin: xml, stdout: "",
                          stderr: "stanzaq: error: query: 2 format arguments given, but the queries have 1 format specifier in all "
                              + "('a<v=%@>@id' takes 1, 'a@id' takes 0)\n", status: 2)
        try assertStanzaq(["-a", "x", "-e", "a@id", "-e", "a<v=%@>@id", "-e", "a<w=%@>"], stdin: xml, stdout: "", stderr: """
            stanzaq: error: query: format specifier %@ has no argument (1 given, 1 taken by the queries before this one; add -a VALUE) at column 5
              a<w=%@>
                  ^

            """, status: 2)
        try assertStanzaq(["--explain", "-a", "x", "-a", "2", "a<v=%@>", "b<n=%d>"], stdout: """
            query: a<v=%@>
            start: the children of the context node
            1. select: elements named 'a' in the parent's namespace
               where 'v' equals '%@', ignoring case (format arguments filled in)
            result: the selected elements
            query: b<n=%d>
            start: the children of the context node
            1. select: elements named 'b' in the parent's namespace
               where 'n' equals '%d', ignoring case (format arguments filled in)
            result: the selected elements

            """, status: 0)
    }

    // 8. An empty segment before '#' is a step to the children (Prosody's get_child_text).
    func testEmptySegmentBeforeText() throws {
        try assertStanzaq(["--first", "{jabber:iq:pass}query/#"], stdin: pass, stdout: "600\n", status: 0)
        try assertStanzaq(["{jabber:iq:pass}query/#"], stdin: pass, stdout: "600\n1.2.3.4\n", status: 0)
        try assertStanzaq(["--json", "{jabber:iq:pass}query/#"], stdin: pass, stdout: "\"600\"\n\"1.2.3.4\"\n", status: 0)
        try assertStanzaq(["{jabber:iq:pass}query/expire/#"], stdin: pass, stdout: "", status: 1)
        try assertStanzaq(["{jabber:iq:pass}query//#"], stdin: pass, stdout: "", status: 1)
        try assertStanzaq(["{jabber:iq:pass}query/@xmlns"], stdin: pass, stdout: "jabber:iq:pass\n", status: 0)
    }

    // 9. '=' as Monal's ^value$: a value ending in one line terminator matches.
    func testEqualsAcceptsOneTrailingLineTerminator() throws {
        try assertStanzaq(["-e", "/<type=result>@id", "-e", "/<type=RESULT>$"], stdin: "<iq type='result&#10;' id='r1'/>",
                          stdout: "r1\tiq\n", status: 0)
        try assertStanzaq(["-o", "json", "-e", "/<type=result>@id", "-e", "/<type=RESULT>$"], stdin: "<iq type='result&#13;&#10;' id='r1'/>",
                          stdout: #"["r1","iq"]"# + "\n", status: 0)
        try assertStanzaq(["/<type=result>"], stdin: "<iq type='result&#10;&#10;'/><iq type=' result'/>", stdout: "", status: 1)
    }

    // 10. Data forms.
    func testDataForms() throws {
        let form = """
            <x xmlns='jabber:x:data' type='Result'><field var='a'><value/></field><field var='a'><value>2</value></field><field var='o'><option label='One'><value>1</value></option><option label='Uno'><value>1</value></option></field></x>
            """
        try assertStanzaq(["-e", #"/\result@a\"#, "-e", #"/\Result@a\"#], stdin: form, stdout: "\t2\n", status: 0)
        try assertStanzaq(["-o", "json", "-e", #"/\@a\"#, "-e", #"/\%a\"#, "-e", #"/\%o\"#], stdin: form,
                          stdout: #"["2",{"name":"a","values":[],"options":{},"required":false},"#
                              + #"{"name":"o","values":[],"options":{"1":"Uno"},"required":false}]"# + "\n", status: 0)
        try assertStanzaq([#"/\%o\"#], stdin: form, stdout: #"{"name":"o","values":[],"options":{"1":"Uno"},"required":false}"# + "\n", status: 0)
        try assertStanzaq([#"/\[99999999999999999999]@a\"#], stdin: form, stdout: "", status: 1)
        try assertStanzaq(["--first", #"{*}field/..\@a\"#], stdin: form, stdout: "2\n", status: 0)
        try assertStanzaq([#"{*}field/..\[0]@a\"#], stdin: form, stdout: "", status: 1)
    }

    // 11. -N does not override xmlns=''.
    func testDefaultNamespaceKeepsExplicitEmpty() throws {
        let xml = "<message><body/><x xmlns=''/></message>"
        try assertStanzaq(["-N", "jabber:client", "-e", "/@xmlns", "-e", "{*}x@xmlns", "-e", "x$", "-e", "body$"], stdin: xml,
                          stdout: "jabber:client\t\t\tbody\n", status: 0)
        try assertStanzaq(["--json", "-N", "jabber:client", "-e", "/@xmlns", "-e", "{*}x@xmlns", "-e", "x$"], stdin: xml,
                          stdout: #"["jabber:client",null,null]"# + "\n", status: 0)
        try assertStanzaq(["-N", "jabber:client", "{*}x"], stdin: xml, stdout: "<x/>\n", status: 0)
    }

    // 12. TSV rows can be decoded back.
    func testTSVEscapes() throws {
        let xml = "<a v='x\\y&#9;z&#13;&#10;' w='\\n'/>"
        try assertStanzaq(["-o", "tsv", "-e", "/@v", "-e", "/@w", "-e", "/$"], stdin: xml, stdout: #"x\\y\tz\r\n"# + "\t" + #"\\n"# + "\ta\n", status: 0)
        try assertStanzaq(["-o", "tsv", "/@v"], stdin: xml, stdout: #"x\\y\tz\r\n"# + "\n", status: 0)
        try assertStanzaq(["-o", "json", "/@v"], stdin: xml, stdout: #""x\\y\tz\r\n""# + "\n", status: 0)
        // Text output is raw.
        try assertStanzaq(["/@v"], stdin: xml, stdout: "x\\y\tz\r\n\n", status: 0)
    }

    // 13. Prefixed element names, --ns, and the warning.
    func testPrefixedNames() throws {
        let stream = """
            <stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams'><stream:features><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'/></stream:features>
            """
        try assertStanzaq(["/stream:features/{*}*$"], stdin: stream, stdout: "bind\n", status: 0)
        try assertStanzaq(["--json", "-n", "/stream:features/{*}*$"], stdin: stream, stdout: #"{"stanza":1,"value":"bind"}"# + "\n", status: 0)
        try assertStanzaq(["--ns", "s=http://etherx.jabber.org/streams", "-c", "/s:features"], stdin: stream, stdout: "1\n", status: 0)
        // --ns takes precedence over the input's binding.
        try assertStanzaq(["--ns", "stream=urn:other", "-c", "/stream:features"], stdin: stream, stdout: "0\n", status: 1)
        try assertStanzaq(["--ns", "f=urn:s", "/f:features"], stdin: "<features xmlns='urn:s'/>", stdout: "<features xmlns='urn:s'/>\n", status: 0)
        try assertStanzaq(["--ns", "b=urn:b", "/@b:v"], stdin: "<a xmlns:p='urn:b' p:v='1'/>", stdout: "1\n", status: 0)
        try assertStanzaq(["--explain", "/stream:features/p:x@p:a"], stdout: """
            query: /stream:features/p:x@p:a
            start: the context node itself (rooted query)
            1. select: the context node, if it is an element named 'features' in the namespace of prefix 'stream' (resolved by --ns, else on the element; stanzaq extension)
            2. select: elements named 'x' in the namespace of prefix 'p' (resolved by --ns, else on the element; stanzaq extension)
            extract: attribute 'p:a' (prefix resolved by --ns, else on the element)

            """, status: 0)
    }

    /// A prefixed element name is a stanzaq extension: --monal rejects it.
    func testMonalRejectsPrefixedNames() throws {
        try assertStanzaq(["--monal", "/stream:features", "no-such-file.xml"], stdout: "", stderr: """
            stanzaq: error: query: Monal's language has no prefixed element name 'stream:…' (a stanzaq extension) at column 2
              /stream:features
               ^

            """, status: 2)
        // Prefixed attribute names are Monal's and Prosody's: accepted.
        try assertStanzaq(["--monal", "--ns", "b=urn:b", "/@b:v"], stdin: "<a xmlns:p='urn:b' p:v='1'/>", stdout: "1\n", status: 0)
    }

    func testUnboundPrefixIsSaidOnce() throws {
        let warning = "stanzaq: warning: query '/stream:features': the prefix 'stream' is bound nowhere in the input, "
            + "so its names match nothing (bind it with --ns stream=URI)\n"
        try assertStanzaq(["/stream:features"], stdin: "<features/><features/><features xmlns='urn:x'/>", stdout: "", stderr: warning, status: 1)
        try assertStanzaq(["-e", "/stream:features", "-e", "/$"], stdin: "<features/><x/>", stdout: "\tfeatures\n\tx\n", stderr: warning, status: 0)
        // Bound somewhere (even on another stanza, or deep inside one): no warning.
        try assertStanzaq(["-c", "/stream:features"], stdin: "<features/><a><b xmlns:stream='urn:s'/></a>", stdout: "0\n", status: 1)
        // Bound by --ns: no warning.
        try assertStanzaq(["--ns", "stream=urn:s", "/stream:features"], stdin: "<features/>", stdout: "", status: 1)
    }

    func testNsOptionErrors() throws {
        let usage = "Usage: stanzaq [OPTIONS] QUERY [FILE...]  (see stanzaq --help)\n"
        try assertStanzaq(["--ns", "stream", "/a"], stdout: "", stderr: "stanzaq: error: --ns 'stream': expected PREFIX=URI\n" + usage, status: 2)
        try assertStanzaq(["--ns", "a:b=urn:x", "/a"], stdout: "",
                          stderr: "stanzaq: error: --ns 'a:b=urn:x': 'a:b' is not a namespace prefix (a name without ':')\n" + usage, status: 2)
        try assertStanzaq(["--ns", "a=", "/a"], stdout: "", stderr: "stanzaq: error: --ns 'a=': the URI is empty\n" + usage, status: 2)
        try assertStanzaq(["--ns", "a=urn:x", "--ns", "a=urn:y", "/a"], stdout: "",
                          stderr: "stanzaq: error: --ns 'a=urn:y': the prefix a is already bound to urn:x\n" + usage, status: 2)
        try assertStanzaq(["--ns", "xml=urn:x", "/a"], stdout: "",
                          stderr: "stanzaq: error: --ns 'xml=urn:x': the prefix xml is always bound to http://www.w3.org/XML/1998/namespace\n" + usage,
                          status: 2)
    }
}
