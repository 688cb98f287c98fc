import Foundation
import StanzaqTestSupport
import XCTest

/// The shell completions `make install` installs (stanzaq(1), FILES): each shell
/// finds them where they are put, and they complete options, their values and file
/// names, with no `help` subcommand. The install is the Makefile's own
/// `install-files` (what `make install` does after building) with the binary under
/// test, into a fresh PREFIX.
final class ShellCompletionTests: XCTestCase {
    private var prefix: ScratchDirectory!

    override func setUpWithError() throws {
        prefix = try ScratchDirectory()
        let make = try Runner.run(URL(fileURLWithPath: "/usr/bin/make"),
                                  ["-s", "install-files", "PREFIX=\(prefix.url.path)", "BINARY=\(try Runner.requireBinary().path)"],
                                  in: PackagePaths.root, environment: Runner.environment())
        XCTAssertEqual(make.stderr, "")
        XCTAssertEqual(make.status, 0)
    }

    private func installed(_ path: String) -> String { prefix.url.appendingPathComponent(path).path }

    func testInstallPutsEachScriptWhereItsShellLooks() throws {
        for path in ["bin/stanzaq", "share/man/man1/stanzaq.1", "share/man/man7/stanzaq-query.7",
                     "share/bash-completion/completions/stanzaq", "share/zsh/site-functions/_stanzaq",
                     "share/fish/vendor_completions.d/stanzaq.fish"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: installed(path)), path)
        }
        // The binary is stripped.
        let nm = try Runner.run(URL(fileURLWithPath: "/usr/bin/nm"), [installed("bin/stanzaq")], in: prefix.url,
                                environment: Runner.environment())
        XCTAssertEqual(nm.stderr, "/usr/bin/nm: \(installed("bin/stanzaq")): no symbols\n")
        for script in ["share/bash-completion/completions/stanzaq", "share/zsh/site-functions/_stanzaq",
                       "share/fish/vendor_completions.d/stanzaq.fish"] {
            let text = try String(contentsOfFile: installed(script), encoding: .utf8)
            XCTAssertFalse(text.contains("subcommand help"), "\(script) offers a help subcommand")
            XCTAssertFalse(text.contains("_stanzaq_help"), "\(script) has a help subcommand")
        }
    }

    /// bash, through bash-completion's loader (it finds the script in
    /// $XDG_DATA_DIRS/bash-completion/completions), driven as `compgen` and Tab drive it.
    func testBashCompletesOptionsValuesAndFileNames() throws {
        let loader = "/usr/share/bash-completion/bash_completion"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: loader), "bash-completion is not installed (make test-deps)")
        let script = """
            source \(loader)
            __load_completion stanzaq
            complete -p stanzaq
            comp() {
                COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "$COMP_LINE"
                [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMPREPLY=()
                _stanzaq stanzaq "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                # compgen lists files in directory order: sorted here.
                echo "$1:$(printf ' %s' "${COMPREPLY[@]}" | tr ' ' '\\n' | LC_ALL=C sort | tr '\\n' ' ')"
            }
            comp 'stanzaq --outp'
            comp 'stanzaq -o '
            comp 'stanzaq --color a'
            comp 'stanzaq body# capt'
            comp 'stanzaq -c body# logs/pro'
            comp 'stanzaq he'
            """
        let result = try Runner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: Runner.examples,
                                    environment: Runner.environment(["XDG_DATA_DIRS": prefix.url.appendingPathComponent("share").path]))
        XCTAssertEqual(result.output, """
            complete -o filenames -F _stanzaq stanzaq
            stanzaq --outp: --output\u{20}
            stanzaq -o : json text tsv\u{20}
            stanzaq --color a: always auto\u{20}
            stanzaq body# capt: capture.xml\u{20}
            stanzaq -c body# logs/pro: logs/profanity.log logs/prosody-archive.json logs/prosody-syslog.log logs/prosody-watch.log logs/prosody.log\u{20}
            stanzaq he:\u{20}

            """)
        XCTAssertEqual(result.stderr, "")
    }

    /// bash splits a word at '=' (COMP_WORDBREAKS): `--log=pro` is three words, and the
    /// option is the one before the '='. A bare `--log` takes no value: a file follows it.
    func testBashCompletesTheValuesOfLogFieldsAndDirection() throws {
        let loader = "/usr/share/bash-completion/bash_completion"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: loader), "bash-completion is not installed (make test-deps)")
        let script = """
            source \(loader)
            __load_completion stanzaq
            comp() {
                COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
                read -ra COMP_WORDS <<< "${COMP_LINE//=/ = }"
                [[ "$COMP_LINE" == *[\\ =] ]] && COMP_WORDS+=("")
                COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
                COMPREPLY=()
                _stanzaq stanzaq "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                echo "$1:$(printf ' %s' "${COMPREPLY[@]}" | tr ' ' '\\n' | LC_ALL=C sort | tr '\\n' ' ')"
            }
            comp 'stanzaq --log='
            comp 'stanzaq --log=s'
            comp 'stanzaq --log capt'
            comp 'stanzaq --log body# capt'
            comp 'stanzaq --redact='
            comp 'stanzaq --redact=j'
            comp 'stanzaq --redact capt'
            comp 'stanzaq --redact body# capt'
            comp 'stanzaq --fields '
            comp 'stanzaq --fields=d'
            comp 'stanzaq --fields=j'
            comp 'stanzaq --direction '
            comp 'stanzaq --direction=o'
            comp 'stanzaq --since '
            comp 'stanzaq --tz='
            comp 'stanzaq --time-format='
            comp 'stanzaq --vers'
            """
        let result = try Runner.run(URL(fileURLWithPath: "/bin/bash"), ["-c", script], in: Runner.examples,
                                    environment: Runner.environment(["XDG_DATA_DIRS": prefix.url.appendingPathComponent("share").path]))
        XCTAssertEqual(result.output, """
            stanzaq --log=: aioxmpp conversations dino ejabberd gajim generic goxmpp jabberd2 json libpurple libstrophe logxml mcabber monal mongooseim nbxmpp openfire profanity prosody prosody-watch qxmpp slixmpp smack strophejs tigase tshark tsv xmlstream xmppjs\u{20}
            stanzaq --log=s: slixmpp smack strophejs\u{20}
            stanzaq --log capt: capture.xml\u{20}
            stanzaq --log body# capt: capture.xml\u{20}
            stanzaq --redact=: all auth bodies jids\u{20}
            stanzaq --redact=j: jids\u{20}
            stanzaq --redact capt: capture.xml\u{20}
            stanzaq --redact body# capt: capture.xml\u{20}
            stanzaq --fields : direction jid line session time\u{20}
            stanzaq --fields=d: direction\u{20}
            stanzaq --fields=j: jid\u{20}
            stanzaq --direction : in out\u{20}
            stanzaq --direction=o: out\u{20}
            stanzaq --since : -10m -1d -1h\u{20}
            stanzaq --tz=: UTC\u{20}
            stanzaq --time-format=: iso log\u{20}
            stanzaq --vers: --version\u{20}

            """)
        XCTAssertEqual(result.stderr, "")
    }

    /// fish: `--log`'s value only after '=', so a file after a bare `--log`.
    /// In the bash script's lists, a bare `--log` and `--redact` are flags:
    /// no word after them is taken for their value (their value binds with '=').
    func testBashListsLogAndRedactAsFlags() throws {
        let script = try Runner.run(try Runner.requireBinary(), ["--generate-completion-script", "bash"], in: Runner.examples,
                                    environment: Runner.environment([:])).output
        let lists = script.split(separator: "\n").filter { $0.hasPrefix("    local -a non_repeating_") }
        XCTAssertEqual(lists.count, 2)
        for list in lists {
            let words = list.split(whereSeparator: { " ()".contains($0) }).map(String.init)
            let isFlags = list.hasPrefix("    local -a non_repeating_flags=(")
            for option in ["--log", "--redact"] {
                XCTAssertEqual(words.contains(option), isFlags, "\(option) in \(list.prefix(40))")
            }
        }
    }

    func testFishCompletesTheValuesOfLogFieldsAndDirection() throws {
        let fish = "/usr/bin/fish"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: fish), "fish is not installed (make test-deps)")
        let lines = ["stanzaq --log=s", "stanzaq --log capt", "stanzaq --redact=b", "stanzaq --redact capt", "stanzaq --fields=s",
                     "stanzaq --direction "]
        let result = try Runner.run(URL(fileURLWithPath: fish),
                                    ["-c", "for line in \(lines.map { "'\($0)'" }.joined(separator: " ")); complete -C$line; end"],
                                    in: Runner.examples,
                                    environment: Runner.environment(["XDG_DATA_DIRS": prefix.url.appendingPathComponent("share").path,
                                                                     "PATH": installed("bin") + ":/usr/bin:/bin"]))
        let log = "Read the input as a log: --log, or --log=FORMAT (prosody, prosody-watch, ejabberd, logxml, mongooseim, openfire, smack, slixmpp, libstrophe, profanity, libpurple, qxmpp, strophejs, nbxmpp, aioxmpp, gajim, dino, monal, conversations, xmlstream, goxmpp, mcabber, jabberd2, xmppjs, tigase, tshark, json, tsv, generic)."
        let redact = "Remove secrets from every stanza before it is searched and printed: a bare --redact removes SASL payloads and passwords; --redact=WHAT, a comma-separated list of auth, bodies (what people write), jids (pseudonyms for JIDs) or all."
        let fields = "Print these fields of stanzas read from a log: line, time, direction, session, jid (bound in the session), or an archive column (comma-separated)."
        let direction = "Only the stanzas a log shows received (in) or sent (out)."
        XCTAssertEqual(result.output, """
            --log=smack\t\(log)
            --log=slixmpp\t\(log)
            --log=strophejs\t\(log)
            capture.xml
            --redact=bodies\t\(redact)
            capture.xml
            --fields=session\t\(fields)
            in\t\(direction)
            out\t\(direction)

            """)
    }

    /// fish finds the script in $XDG_DATA_DIRS/fish/vendor_completions.d.
    func testFishCompletesOptionsValuesAndFileNames() throws {
        let fish = "/usr/bin/fish"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: fish), "fish is not installed (make test-deps)")
        let result = try Runner.run(URL(fileURLWithPath: fish),
                                    ["-c", "for line in 'stanzaq --outp' 'stanzaq -o ' 'stanzaq body# capt'; complete -C$line; end"],
                                    in: Runner.examples,
                                    environment: Runner.environment(["XDG_DATA_DIRS": prefix.url.appendingPathComponent("share").path,
                                                                     "PATH": installed("bin") + ":/usr/bin:/bin"]))
        XCTAssertEqual(result.output, """
            --output\tOutput format: text, json (JSON Lines) or tsv.
            text\tOutput format: text, json (JSON Lines) or tsv.
            json\tOutput format: text, json (JSON Lines) or tsv.
            tsv\tOutput format: text, json (JSON Lines) or tsv.
            capture.xml

            """)
    }

    /// zsh: the script parses, compinit binds it to stanzaq from the installed
    /// directory, and its operands are files (`_files`), not subcommands.
    func testZshFindsTheScript() throws {
        let zsh = "/usr/bin/zsh"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: zsh), "zsh is not installed (make test-deps)")
        let directory = installed("share/zsh/site-functions")
        let result = try Runner.run(URL(fileURLWithPath: zsh),
                                    ["-f", "-c", "zsh -n \(directory)/_stanzaq && fpath=(\(directory) $fpath) && autoload -Uz compinit && compinit -u -D && echo $_comps[stanzaq]"],
                                    in: prefix.url, environment: Runner.environment())
        XCTAssertEqual(result.output, "_stanzaq\n")
        XCTAssertEqual(result.stderr, "")
        let text = try String(contentsOfFile: "\(directory)/_stanzaq", encoding: .utf8)
        XCTAssertTrue(text.contains("'*:QUERY|FILE:_files'"))
        // `--log`'s value is optional and after '=' only; those of --fields and --direction after '=' or a blank.
        for spec in ["'--log=-[Read the input as a log", "]::FORMAT:{__stanzaq_complete \"${___log[@]}\"}'",
                     "'--redact=-[Remove secrets", "]::WHAT:{__stanzaq_complete \"${___redact[@]}\"}'",
                     "'--fields=[Print these fields", "'--direction=[Only the stanzas", "{-V,--version}"] {
            XCTAssertTrue(text.contains(spec), spec)
        }
    }
}
