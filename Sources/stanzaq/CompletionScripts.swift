import ArgumentParser
import Foundation

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
        case .zsh:
            // The operands, taken for a subcommand and its arguments, are files.
            script = script.replacingOccurrences(of: "        '(-): :->command'\n        '(-)*:: :->arg'\n",
                                                 with: "        '*:QUERY|FILE:_files'\n")
            script = removing(script, from: "\n    case \"${state}\" in\n", through: "\n    esac\n")
            script = removing(script, from: "\n_stanzaq_help() {\n", through: "\n}\n")
        case .fish:
            // The help subcommand as the first operand, its --version, and its parsing.
            script = script.split(separator: "\n", omittingEmptySubsequences: false)
                .filter { !$0.contains("'help' -d 'Show subcommand help information.'") && !$0.contains("\"stanzaq help\"") }
                .joined(separator: "\n")
            script = removing(script, from: "\n        switch $unparsed_tokens[1]\n        case 'help'\n", through: "\n        end\n")
        default:
            break
        }
        return script.hasSuffix("\n") ? script : script + "\n"
    }

    /// `text` without the first piece that starts with `start` and ends with
    /// the first `end` after it (leaving one newline in its place).
    private static func removing(_ text: String, from start: String, through end: String) -> String {
        guard let lower = text.range(of: start),
              let upper = text.range(of: end, range: lower.upperBound..<text.endIndex) else { return text }
        return text.replacingCharacters(in: lower.lowerBound..<upper.upperBound, with: "\n")
    }
}
