#!/bin/sh
# Writes the seed corpora of the fuzz targets (see `make fuzz`):
#   OUT/query/   one query per file, taken from the tests, the README and the
#                man pages, and a few hostile ones;
#   OUT/reader/  one input per file: every stanza of the shared corpus, the
#                examples, and hostile XML (DTDs, deep nesting, cut-off input);
#   OUT/log/     the logs real software wrote, and every log format's example.
# Both also get the inputs kept in Fuzz/regressions/TARGET/.
# Usage: Fuzz/make-seeds.sh SHARED_CORPUS OUT   (run from the repository root)
# A missing shared corpus is not an error: the other seeds are still written.
set -eu
corpus=$1
out=$2
rm -rf "$out/query" "$out/reader" "$out/log"
mkdir -p "$out/query" "$out/reader" "$out/log"

# Queries: string arguments of the helpers and initialisers the tests call
# (Swift escapes undone crudely: a seed only needs to be close), …
{
    grep -hoE '(texts|jsons|syntaxError|evaluationError|Query|find|findFirst|check)\(#"[^"]*"#' Tests/StanzaQueryTests/*.swift |
        sed -E 's/^[A-Za-z]+\(#"//; s/"#$//'
    grep -hoE '(texts|jsons|syntaxError|evaluationError|Query|find|findFirst|check)\("([^"\\]|\\.)*"' Tests/StanzaQueryTests/*.swift |
        sed -E 's/^[A-Za-z]+\("//; s/"$//; s/\\"/"/g; s/\\\\/\\/g'
    # … the first quoted argument of the documented command lines, …
    grep -hE '^\$ stanzaq ' README.md | grep -oE "'[^']*'" | tr -d "'"
    grep -hE '^\$ .*stanzaq ' man/stanzaq.1 man/stanzaq-query.7 | sed 's/\\(aq/'"'"'/g; s/\\e/\\/g; s/\\-/-/g' |
        grep -oE "'[^']*'" | tr -d "'"
    # … and a few the fuzzer is unlikely to build alone.
    printf '%s\n' \
        '/<a~^(a+)+$>' '{*}*<xml:lang~(x|x)*y>@@' '/<id=%@><to=%d>' '/<id=%s%s%s>' '/<id=%n%x%99999d>' \
        '\{urn:xmpp:dataforms:softwareinfo}result[1]%os\' '\\*[0]&jid\\' '/../..@a|uuidcast' \
        '{jabber:x:data}x/\@os\|int' '/{*}!body/../*$' '@p:a|base64' '{urn:x}x@{urn:p}a|double'
} | awk 'length($0) > 0 && !seen[$0]++ { file = sprintf("%s/query/q%05d", out, ++n); printf "%s", $0 > file; close(file) }' out="$out"
# Queries with format arguments (NUL-separated after the query).
printf '/<id=%%@>@to\0005a55dac8-d3a4-4d0c-8811-24bdae92b8cb' >"$out/query/args1"
printf '{urn:x}x<b=%%d><p:a=%%llu>#\000-42\0001' >"$out/query/args2"

# Inputs: every stanza of the shared corpus on its own (each is preceded by a
# "<!-- xep-NNNN: … -->" comment line), …
if [ -f "$corpus" ]; then
    awk '
        /^<!-- xep-/ { if (file != "") close(file); file = sprintf("%s/reader/xep%05d.xml", out, ++n); next }
        /^<\/stream:stream>/ { next }
        file != "" { print > file }
    ' out="$out" "$corpus"
    # The stream header and two stanzas, as a capture starts.
    head -n 20 "$corpus" >"$out/reader/stream-head.xml"
else
    echo "make-seeds: no shared corpus at $corpus; seeding from the examples only" >&2
fi
# … the examples, …
for file in examples/*.xml; do cp "$file" "$out/reader/example-$(basename "$file")"; done
# … inputs that once crashed a target or broke one of its checks, …
# Logs: what real software wrote (Tests/Fixtures/real-logs), every format's and envelope's example, Monal's rawlogs.
for file in Tests/Fixtures/real-logs/logs/* Tests/Fixtures/real-logs/tshark/*-follow.txt examples/logs/* \
    examples/envelopes/* Tests/Fixtures/monal-rawlog/*.rawlog; do
    case $file in *.md) continue ;; esac
    cp "$file" "$out/log/$(basename "$(dirname "$file")")-$(basename "$file")"
done
for target in query reader log; do
    for file in Fuzz/regressions/$target/*; do
        [ -f "$file" ] && cp "$file" "$out/$target/regression-$(basename "$file")"
    done
done
# … and hostile XML.
r=$out/reader
printf '<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>' >"$r/billion-laughs.xml"
printf '<!DOCTYPE m [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><m>&xxe;</m>' >"$r/xxe.xml"
printf '<m><a>&nbsp;&#0;&#xD800;&#x10FFFF;&amp;&lt;</a></m>' >"$r/entities.xml"
printf '<m><![CDATA[x]]]]><![CDATA[>y]]></m><n/><?xml version="1.0"?><o/>' >"$r/cdata-decl.xml"
printf '<stream:stream xmlns="jabber:client" xmlns:stream="http://etherx.jabber.org/streams"><message><body>a</body></message></stream:stream><stream:stream xmlns:stream="http://etherx.jabber.org/streams"><iq/>' >"$r/reconnect.xml"
printf '<m xmlns:p="urn:p" p:a="1" b="&#9;&#10;&#13;x"><p:b xml:lang="en">t\r\nu</p:b></m>' >"$r/whitespace.xml"
awk 'BEGIN { for (i = 0; i < 300; i++) printf "<a>" }' >"$r/deep.xml"
# Start tags at the reader's limit of 1,024 attributes (namespace declarations
# included), and one over it, between good stanzas.
awk 'BEGIN { printf "<m id=\"1\"/><m"; for (i = 1; i < 1024; i++) printf " a%d=\"\"", i; printf " id=\"2\"/><m id=\"3\"/>" }' >"$r/attributes-1024.xml"
awk 'BEGIN { printf "<m id=\"1\"/><m"; for (i = 0; i < 1025; i++) printf " xmlns:p%d=\"u\"", i; printf "><b/></m><m id=\"3\"/>" }' >"$r/declarations-1025.xml"
printf '<m a="1"><b>cut' >"$r/cut.xml"
printf '<m>\377\376\000</m>' >"$r/invalid-utf8.xml"
echo "make-seeds: $(ls "$out/query" | wc -l) queries, $(ls "$out/reader" | wc -l) inputs, $(ls "$out/log" | wc -l) logs in $out"
