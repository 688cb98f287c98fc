-- Prosody's own answers, for the differential test of stanzaq's --first
-- (Tests/StanzaQueryTests/ProsodyDifferentialTests.swift).
--
--   lua5.4 find.lua CORPUS QUERIES
--
-- CORPUS is an XMPP stream document (../shared/corpus/xep-stanzas.xml); it is
-- parsed with Prosody's util.xml, and each child of the stream is a stanza
-- (but a BOSH body or WebSocket framing, which are transport: a body's
-- children are stanzas in its place), numbered from 1 as stanzaq numbers them. QUERIES has one line per query:
--
--   N <TAB> PATH <TAB> ELEMENT-PATH
--
-- For each, this prints one line: what stanza N's stanza:find(PATH) returns,
-- and where the element stanza:find(ELEMENT-PATH) returns sits in the stanza
-- (the element PATH read its answer from; ELEMENT-PATH "." is the stanza):
--
--   nil | str <TAB> VALUE | elem <TAB> WHERE      then <TAB> WHERE
--
-- WHERE is "-" for no element, "" for the stanza, else 1-based indexes among
-- child elements joined by "." ("2.1": the first child element of the second).
-- VALUE escapes backslash, tab, newline and carriage return as \\ \t \n \r.

package.path = "/usr/lib/prosody/?.lua;" .. package.path
package.cpath = "/usr/lib/prosody/?.so;" .. package.cpath
local xml = require "util.xml"

local corpus, queries = arg[1], arg[2]
local file = assert(io.open(corpus, "rb"))
local stream = assert(xml.parse(file:read("a"), { allow_comments = true }))
file:close()

local stanzas = {}
for _, child in ipairs(stream.tags) do
	local namespace = child.attr.xmlns
	if child.name == "body" and namespace == "http://jabber.org/protocol/httpbind" then
		for _, inner in ipairs(child.tags) do stanzas[#stanzas + 1] = inner end
	elseif namespace ~= "urn:ietf:params:xml:ns:xmpp-framing" or (child.name ~= "open" and child.name ~= "close") then
		stanzas[#stanzas + 1] = child
	end
end

-- Where each element of a stanza is, computed once per stanza.
local places = setmetatable({}, { __mode = "k" })
local function place_of(stanza, element)
	if element == nil then return "-" end
	local map = places[stanza]
	if not map then
		map = {}
		local function walk(node, path)
			map[node] = path
			for i, child in ipairs(node.tags) do
				walk(child, path == "" and tostring(i) or (path .. "." .. i))
			end
		end
		walk(stanza, "")
		places[stanza] = map
	end
	return map[element] or "?"
end

local function escape(text)
	return (text:gsub("[\\\t\n\r]", { ["\\"] = "\\\\", ["\t"] = "\\t", ["\n"] = "\\n", ["\r"] = "\\r" }))
end

local out = {}
for line in io.lines(queries) do
	local number, path, element_path = line:match("^(%d+)\t([^\t]*)\t([^\t]*)$")
	local stanza = assert(stanzas[tonumber(number)], "no stanza " .. number)
	local result = stanza:find(path)
	local element
	if element_path == "." then element = stanza else element = stanza:find(element_path) end
	local answer
	if result == nil then
		answer = "nil"
	elseif type(result) == "string" then
		answer = "str\t" .. escape(result)
	else
		answer = "elem\t" .. place_of(stanza, result)
	end
	out[#out + 1] = answer .. "\t" .. place_of(stanza, element)
	if #out == 4096 then io.write(table.concat(out, "\n"), "\n"); out = {} end
end
if #out > 0 then io.write(table.concat(out, "\n"), "\n") end
