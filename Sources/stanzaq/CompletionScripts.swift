import ArgumentParser
import StanzaQuery

/// The shell completion scripts (`--generate-completion-script bash|zsh|fish`,
/// installed by `make install`): swift-argument-parser's, without the `help`
/// subcommand its generator adds to every command tree, stanzaq's included,
/// which has no subcommands. That phantom made zsh and fish take the operands
/// for subcommand names (no file names completed) and offer `help`.
///
/// Each edit removes a piece the generator writes for that subcommand; if a new
/// version of the library writes them differently, the tests of the installed
/// scripts (ShellCompletionTests) say so.
enum CompletionScripts {
    static func script(for shell: CompletionShell) -> String {
        var script = StanzaqCommand.completionScript(for: shell)
        switch shell {
        case .bash:
            // The subcommand dispatch after the positionals (never reached: every
            // positional returns first) and the help subcommand's function.
            script = removing(script, from: "\n    # Offer subcommand / subcommand argument completions\n", through: "\n    esac\n")
            script = removing(script, from: "\n_stanzaq_help() {\n", through: "\n}\n")
            // `--log=FORMAT`, `--fields=LIST`: bash splits the word at '=' (COMP_WORDBREAKS),
            // so the option is the word before the '='. A bare `--log` or `--redact` takes no
            // value: the word after it is the query or a file (stanzaq(1), `--log`, `--redact`).
            script = script.replacingLiterally("    local -r prev=\"${3}\"\n", with: """
                    local prev="${3}"
                    if [[ "${prev}" = '=' && "${COMP_CWORD}" -ge 2 ]]; then
                        prev="${COMP_WORDS[COMP_CWORD-2]}"
                    elif [[ "${prev}" = '--log' || "${prev}" = '--redact' ]]; then
                        prev=''
                    fi
                    local -r prev

                """)
            // So they are flags where the words before are parsed: no word after them is their value.
            script = asFlags(["--log", "--redact"], in: script)
        case .zsh:
            // The operands, taken for a subcommand and its arguments, are files.
            script = script.replacingLiterally("        '(-): :->command'\n        '(-)*:: :->arg'\n",
                                                 with: "        '*:QUERY|FILE:_files'\n")
            script = removing(script, from: "\n    case \"${state}\" in\n", through: "\n    esac\n")
            script = removing(script, from: "\n_stanzaq_help() {\n", through: "\n}\n")
            // `--log`'s and `--redact`'s values are optional and only after '=' (`=-`, `::`);
            // `--fields` and `--direction` take theirs after '=' or as the next word (`=`).
            script = script.replacingLiterally("'--log[", with: "'--log=-[")
                .replacingLiterally("]:FORMAT:{__stanzaq_complete \"${___log[@]}\"}'", with: "]::FORMAT:{__stanzaq_complete \"${___log[@]}\"}'")
                .replacingLiterally("'--redact[", with: "'--redact=-[")
                .replacingLiterally("]:WHAT:{__stanzaq_complete \"${___redact[@]}\"}'", with: "]::WHAT:{__stanzaq_complete \"${___redact[@]}\"}'")
                .replacingLiterally("'--fields[", with: "'--fields=[")
                .replacingLiterally("'--direction[", with: "'--direction=[")
        case .fish:
            // The help subcommand as the first operand, its --version, and its parsing.
            script = script.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("'help' -d 'Show subcommand help information.'") && !$0.contains("\"stanzaq help\"") }
                .joined(separator: "\n")
            script = removing(script, from: "\n        switch $unparsed_tokens[1]\n        case 'help'\n", through: "\n        end\n")
            // `--log`'s and `--redact`'s values are optional and bind only with '=' (stanzaq(1),
            // `--log`, `--redact`): the word after a bare `--log` is the query or a file.
            script = script.replacingLiterally(" 'log=' ", with: " 'log=?' ").replacingLiterally(" 'redact=' ", with: " 'redact=?' ")
            // An optional value is no longer known to be the option's, so the operands'
            // file names are offered only for a word that is not an option (`--log=s`).
            script = script.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.contains(" -l 'log' ") || line.contains(" -l 'redact' ") ? line.replacingLiterally(" -rfka '", with: " -fka '") : String(line)
            }.joined(separator: "\n")
            script = script.replacingLiterally("-n '__stanzaq_should_offer_completions_for_positional \"stanzaq\" -ge 1' -F",
                with: "-n '__stanzaq_should_offer_completions_for_positional \"stanzaq\" -ge 1; and not string match -q -- \"-*\" (commandline -ct)' -F")
        default:
            break
        }
        return script.hasSuffix("\n") ? script : script + "\n"
    }

    /// `text` without the first piece that starts with `start` and ends with
    /// the first `end` after it (leaving one newline in its place).
    /// The bash script with `options` moved from the list of the options that
    /// take a value to that of the flags, whatever their place in the lists.
    private static func asFlags(_ options: [String], in script: String) -> String {
        let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let text = String(line)
            for (list, keep) in [("    local -a non_repeating_options=(", false), ("    local -a non_repeating_flags=(", true)]
            where text.hasPrefix(list) && text.hasSuffix(")") {
                var words = text.dropFirst(list.count).dropLast().split(separator: " ").map(String.init)
                words.removeAll { options.contains($0) }
                if keep { words += options }
                return list + words.joined(separator: " ") + ")"
            }
            return text
        }
        return lines.joined(separator: "\n")
    }

    private static func removing(_ text: String, from start: String, through end: String) -> String {
        guard let lower = text.literalRange(of: start),
              let upper = text[lower.upperBound...].literalRange(of: end) else { return text }
        return text[..<lower.lowerBound] + "\n" + text[upper.upperBound...]
    }
}
