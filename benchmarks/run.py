#!/usr/bin/env python3
"""make bench: stanzaq against libxml2's own streaming parse and xmlstarlet, in one run.

Generates the inputs (the shared corpus without comments, repeated to BENCH_MB and
to 20 MB, and dealt into 1,000 small streams), times each command (median of
BENCH_RUNS runs, the commands of a table run in turn, round after round), measures peak RSS with /usr/bin/time, checks that every stanzaq
command prints with the default threads exactly what it prints with --threads 1
(stdout, stderr, exit status), prints a table and writes it to
benchmarks/RESULTS.md with the machine and the commands. Ratios compare with the
floor measured in the same run.

Start-up and size (issue 32): stanzaq and xmllint on one small stanza from
standard input (300 runs each, in turn; see spawn_medians), the stripped release binary's size,
the ICUs it loads (ldd) and whether it carries Foundation's ICU data, each with
its goal. BENCH_ONLY=startup runs that part alone (seconds, not minutes).

Real shapes (issue 30, benchmarks/speed.py): the logs real software wrote and a
million small stanzas, against --threads 1, grep, rg and xmllint, each goal
with its ratio. BENCH_ONLY=speed runs that part alone.

Damaged input (issue 43, benchmarks/damage.py): cut start tags and ejabberd records
that each open a start tag, as rates against an undamaged log's. BENCH_ONLY=damage
runs that part alone.

A log in an envelope (issue 44, benchmarks/envelopes.py): Prosody's log through
`docker logs -t` and Docker's json-file against the log unwrapped, --threads 1
and grep. BENCH_ONLY=envelopes runs that part alone.
"""
import glob
import hashlib
import json
import os
import platform
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import damage
import envelopes
import speed

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# STANZAQ_BIN measures another build (an earlier commit's, for a before/after).
BIN = os.environ.get("STANZAQ_BIN", os.path.join(ROOT, ".build/release/stanzaq"))
DATA = os.path.join(ROOT, "benchmarks/data")
CORPUS = os.environ.get("STANZAQ_CORPUS", os.path.join(os.path.dirname(ROOT), "shared/corpus/xep-stanzas.xml"))
BIG_MB = float(os.environ.get("BENCH_MB", "200"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
FILES = 1000


def sh(command):
    return subprocess.run(command, shell=True, capture_output=True, text=True).stdout.strip()


def make_input(megabytes):
    path = os.path.join(DATA, f"stream-{megabytes:g}MB.xml")
    if not os.path.exists(path):
        os.makedirs(DATA, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks/make-input.py"), CORPUS, path, str(megabytes)], check=True)
    return path


def make_files(megabytes):
    """The corpus's examples dealt into FILES streams of BENCH_MB / 10 together."""
    directory = os.path.join(DATA, f"files-{FILES}-{megabytes:g}MB")
    if not os.path.exists(directory):
        subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks/make-files.py"), CORPUS, directory + ".tmp",
                        str(FILES), str(megabytes)], check=True)
        os.rename(directory + ".tmp", directory)
    return directory


def make_log(megabytes):
    """A Prosody debug log of the corpus's stanzas, and the same stanzas as XML."""
    log = os.path.join(DATA, f"prosody-{megabytes:g}MB.log")
    xml = os.path.join(DATA, f"prosody-{megabytes:g}MB-stanzas.xml")
    if not (os.path.exists(log) and os.path.exists(xml)):
        os.makedirs(DATA, exist_ok=True)
        subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks/make-log.py"), CORPUS, log, xml, str(megabytes)], check=True)
    return log, xml


def q(text):
    return "'" + text.replace("'", "'\\''") + "'"


# stanzaq's queries: name, arguments
STANZAQ = [
    ("body#", q("body#")),
    ("filter =", q("/{jabber:client}message<type=chat>/body#")),
    ("filter ~", q("/{jabber:client}message<type~^chat$>/body#")),
    ("datetime", q("{urn:xmpp:delay}delay@stamp|datetime")),
    ("3 queries (TSV)", "-e /@from -e /@id -e " + q("body#")),
    ("-s whole stanzas", "-s " + q("/<type=error>")),
    ("data form", q("{http://jabber.org/protocol/disco#info}query/\\{*}result@FORM_TYPE\\")),
]

# name, command template ({f} is the input): the floor, xmlstarlet, then each
# stanzaq query with the default threads and with one
QUERIES = [
    ("xmllint --stream --noout (floor)", "xmllint --stream --noout {f}"),
    ("xmlstarlet sel //c:message/c:body", "xmlstarlet sel -N c=jabber:client -t -v //c:message/c:body -n {f}"),
]
# (--read-all: these tables measure reading and evaluating every stanza, as
# before the prefilter; speed.py measures what skipping gains.)
for _name, _arguments in STANZAQ:
    QUERIES.append((f"stanzaq {_name}", f"{BIN} --read-all {_arguments} {{f}}"))
    QUERIES.append((f"stanzaq {_name}, --threads 1", f"{BIN} --threads 1 --read-all {_arguments} {{f}}"))

# The same stanzas in FILES small streams ({d} is their directory).
MANY_FILES = [
    ("xmllint --stream --noout, 1,000 files (floor)", "xmllint --stream --noout {d}/*.xml"),
    ("stanzaq body#, 1,000 files", f"{BIN} {q('body#')} {{d}}/*.xml"),
    ("stanzaq body#, 1,000 files, --threads 1", f"{BIN} --threads 1 {q('body#')} {{d}}/*.xml"),
    ("stanzaq -c -H body#, 1,000 files", f"{BIN} -c -H {q('body#')} {{d}}/*.xml"),
    ("stanzaq -c -H body#, 1,000 files, --threads 1", f"{BIN} --threads 1 -c -H {q('body#')} {{d}}/*.xml"),
]


def digest(command):
    """sha256 of stdout, of stderr, and the exit status of `command` (run by sh)."""
    with tempfile.TemporaryDirectory() as scratch:
        err = os.path.join(scratch, "err")
        with open(err, "wb") as error_file:
            process = subprocess.Popen(["sh", "-c", command], stdout=subprocess.PIPE, stderr=error_file)
            hasher = hashlib.sha256()
            for block in iter(lambda: process.stdout.read(1 << 20), b""):
                hasher.update(block)
            status = process.wait()
        return hasher.hexdigest(), hashlib.sha256(open(err, "rb").read()).hexdigest(), status


def same_as_one_thread(pairs):
    """The names of the commands whose output differs from their --threads 1 twin's."""
    return [name for name, command, single in pairs if digest(command) != digest(single)]


def hyperfine(commands, runs, warmup=1):
    """Medians from hyperfine, which corrects for the shell: for commands of a few milliseconds."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run(["hyperfine", "--style", "none", "--runs", str(runs), "--warmup", str(warmup),
                        "--export-json", out.name] + [c + " > /dev/null 2>&1" for c in commands],
                       check=True, stdout=subprocess.DEVNULL)
        return [r["median"] for r in json.load(open(out.name))["results"]]


def interleaved(commands, runs, warmup=1, rounds=False):
    """Median wall time of each command, the commands run in turn, round after round
    (with `rounds`, each command's times, round by round, not their median).

    Why not hyperfine: it runs all of one command's runs before the next's, and
    this shared machine drifts by several percent over the minutes a table takes,
    so a ratio to the floor measured minutes earlier carries the drift. Run in
    turn, every command meets the same moments of the machine. The order turns by
    one each round, so that no command always follows the same one. Each command
    is run directly (its words split and its globs expanded as sh would), output to
    /dev/null, so there is no shell to correct for."""
    argvs = []
    for command in commands:
        argv = []
        for word in shlex.split(command):
            # A glob as sh expands it: unquoted (written as is, after a blank), with a `*`.
            unquoted = " " + word in command
            argv += sorted(glob.glob(word)) if "*" in word and unquoted else [word]
        argvs.append(argv)
    times = [[] for _ in commands]
    for round_ in range(warmup + runs):
        for turn in range(len(argvs)):
            index = (turn + round_) % len(argvs)
            start = time.perf_counter()
            subprocess.run(argvs[index], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if round_ >= warmup:
                times[index].append(time.perf_counter() - start)
    return times if rounds else [statistics.median(t) for t in times]


def peak_rss_mib(command):
    result = subprocess.run(["/usr/bin/time", "-f", "%M", "sh", "-c", command + " > /dev/null 2>/dev/null"],
                            capture_output=True, text=True)
    return int(result.stderr.strip().splitlines()[-1]) / 1024


# One small stanza, as a shell loop hands stanzaq one at a time.
ONE_STANZA = ("<message xmlns='jabber:client' from='romeo@montague.lit/orchard' to='juliet@capulet.lit' "
              "type='chat' id='m1'><body>Art thou not Romeo, and a Montague?</body></message>\n")
STARTUP_GOAL = 2.0      # stanzaq's start-up / xmllint's, at most
STRIPPED_GOAL_MB = 20   # the stripped release binary, at most


def spawn_medians(commands, stdin_path, runs, warmup=20):
    """Median wall time of each command (argv), from posix_spawn to its exit, with
    standard input from `stdin_path` and output to /dev/null; the commands run in
    turn, round after round (see interleaved). No shell: hyperfine can only
    redirect standard input through one, and cannot subtract a shell's start
    precisely from runs of a few milliseconds."""
    times = [[] for _ in commands]
    for round_ in range(warmup + runs):
        for turn in range(len(commands)):
            index = (turn + round_) % len(commands)
            argv = commands[index]
            source = os.open(stdin_path, os.O_RDONLY)
            null = os.open(os.devnull, os.O_WRONLY)
            start = time.perf_counter()
            pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=[
                (os.POSIX_SPAWN_DUP2, source, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)])
            os.waitpid(pid, 0)
            elapsed = time.perf_counter() - start
            os.close(source)
            os.close(null)
            if round_ >= warmup:
                times[index].append(elapsed)
    return [statistics.median(t) for t in times]


def tour_command_lines():
    """The stanzaq command lines of the README's tour with options, as argv
    whose input is standard input: what stanzaq's pipes and redirections hold is cut,
    operands that name the examples' files are left out, the REPL's (-i) and
    a directory's (-r) lines are skipped (issue 42: each starts within
    STARTUP_GOAL times xmllint's start-up)."""
    lines = []
    with open(os.path.join(ROOT, "README.md")) as readme:
        for line in readme:
            segments = [part for part in line[2:].split(" | ") if part.startswith("stanzaq ")]
            if not line.startswith("$ ") or not segments:
                continue
            words = shlex.split(segments[0].split(" 2>&1")[0])
            words = [w for w in words if not os.path.exists(os.path.join(ROOT, w)) and "examples/" not in w]
            if any(w.startswith("-") for w in words[1:]) and not {"-i", "-r"} & set(words):
                lines.append([BIN] + words[1:])
    return lines


def startup_and_size():
    """The start-up and size lines, with their goals (issue 32, issue 42)."""
    os.makedirs(DATA, exist_ok=True)
    stanza = os.path.join(DATA, "one-stanza.xml")
    with open(stanza, "w") as out:
        out.write(ONE_STANZA)
    xmllint = [shutil.which("xmllint"), "--noout", "-"]
    stanzaq_s, xmllint_s = spawn_medians([[BIN, "/@id"], xmllint], stanza, 300)
    ratio = stanzaq_s / xmllint_s
    tour = tour_command_lines()
    tour_medians = spawn_medians(tour + [xmllint], stanza, 40, warmup=5)
    tour_ratios = [t / tour_medians[-1] for t in tour_medians[:-1]]
    slowest = max(range(len(tour)), key=lambda i: tour_ratios[i])
    with tempfile.TemporaryDirectory() as scratch:
        stripped = os.path.join(scratch, "stanzaq")
        shutil.copy(BIN, stripped)
        subprocess.run(["strip", stripped], check=True)
        stripped_mb = os.path.getsize(stripped) / 1e6
    unstripped_mb = os.path.getsize(BIN) / 1e6
    icus = sorted(set(re.findall(r"(libicu\w+\.so\.[0-9]+)", sh(f"ldd {BIN}"))))
    with open(BIN, "rb") as binary:
        foundation_icu_data = b"icudt" in binary.read()

    def verdict(ok):
        return "met" if ok else "NOT met"
    return [
        f"| start-up on one small stanza from stdin: stanzaq /@id, median | {stanzaq_s * 1000:.2f} ms |",
        f"| start-up on one small stanza from stdin: xmllint --noout -, median | {xmllint_s * 1000:.2f} ms |",
        f"| start-up, stanzaq / xmllint (goal <= {STARTUP_GOAL:g}: {verdict(ratio <= STARTUP_GOAL)}) | {ratio:.2f} |",
        f"| start-up of the README tour's {len(tour)} command lines with options, on the same stanza: median of "
        f"their ratios to xmllint | {statistics.median(tour_ratios):.2f} |",
        f"| start-up, the slowest of them / xmllint (goal <= {STARTUP_GOAL:g}: "
        f"{verdict(tour_ratios[slowest] <= STARTUP_GOAL)}): `{shlex.join(['stanzaq'] + tour[slowest][1:])}` "
        f"| {tour_ratios[slowest]:.2f} |",
        f"| release binary, stripped (goal <= {STRIPPED_GOAL_MB} MB: {verdict(stripped_mb <= STRIPPED_GOAL_MB)}) "
        f"| {stripped_mb:.1f} MB ({unstripped_mb:.1f} MB with symbols) |",
        f"| ICU libraries loaded (ldd; goal: one ICU) | {', '.join(icus) or 'none'} |",
        f"| Foundation's ICU data in the binary (icudt; goal: none) | {'yes' if foundation_icu_data else 'none'} |",
    ]


def main():
    subprocess.run(["make", "-s", "-C", ROOT, "build"], check=True)
    if os.environ.get("BENCH_ONLY") == "startup":
        print("\n".join(["| start-up and size | value |", "|---|---:|"] + startup_and_size()))
        return
    if os.environ.get("BENCH_ONLY") == "damage":
        print("\n".join(damage.run(BIN, DATA, RUNS, interleaved, q, make_log(20)[0])), flush=True)
        return
    if os.environ.get("BENCH_ONLY") == "envelopes":
        os.makedirs(DATA, exist_ok=True)
        print("\n".join(envelopes.run(ROOT, BIN, DATA, RUNS, interleaved, peak_rss_mib, digest, q)), flush=True)
        return
    if os.environ.get("BENCH_ONLY") == "speed":
        os.makedirs(DATA, exist_ok=True)
        print("\n".join(speed.run(ROOT, BIN, DATA, RUNS, interleaved, peak_rss_mib, digest, q)), flush=True)
        return
    big, small = make_input(BIG_MB), make_input(20)
    size = os.path.getsize(big) / 1e6
    files = make_files(BIG_MB / 10)
    files_size = sum(os.path.getsize(os.path.join(files, name)) for name in os.listdir(files)) / 1e6
    print(f"input: {big} ({size:.0f} MB), {small}, {files} ({FILES} files, {files_size:.0f} MB); {RUNS} runs each", flush=True)

    # Threads change nothing but speed: every command's output against --threads 1's.
    twins = [(name, command, command.replace(f"{BIN} ", f"{BIN} --threads 1 ", 1))
             for name, command in QUERIES + MANY_FILES if name.startswith("stanzaq") and "--threads 1" not in name]
    differing = same_as_one_thread([(name, c.replace("{f}", big).replace("{d}", files),
                                     single.replace("{f}", big).replace("{d}", files)) for name, c, single in twins])
    print("output identical to --threads 1: " + ("every command" if not differing else "NOT for " + ", ".join(differing)),
          flush=True)

    medians = interleaved([c.replace("{f}", big) for _, c in QUERIES], RUNS)
    rss_big = [peak_rss_mib(c.replace("{f}", big)) for _, c in QUERIES]
    rss_small = [peak_rss_mib(c.replace("{f}", small)) for _, c in QUERIES]
    floor = medians[0]

    many_medians = interleaved([c.replace("{d}", files) for _, c in MANY_FILES], RUNS)
    many_rss = [peak_rss_mib(c.replace("{d}", files)) for _, c in MANY_FILES]

    # A Prosody debug log against the same stanzas as XML (stanzaq(1), LOGS).
    log, log_xml = make_log(BIG_MB)
    log_small, _ = make_log(20)
    log_commands = [f"{BIN} --read-all {q('body#')} {log}", f"{BIN} --read-all {q('body#')} {log_xml}",
                    f"{BIN} --threads 1 --read-all {q('body#')} {log}", f"{BIN} --threads 1 --read-all {q('body#')} {log_xml}"]
    # The log too: its output with the default threads against --threads 1's.
    differing += same_as_one_thread([("stanzaq body# on the log", log_commands[0], log_commands[2])])
    log_medians = interleaved(log_commands, RUNS)
    log_rss = [peak_rss_mib(log_commands[0]), peak_rss_mib(f"{BIN} {q('body#')} {log_small}")]
    log_size, log_xml_size = os.path.getsize(log) / 1e6, os.path.getsize(log_xml) / 1e6

    real_shapes = speed.run(ROOT, BIN, DATA, RUNS, interleaved, peak_rss_mib, digest, q)
    print("\n".join(real_shapes), flush=True)
    enveloped = envelopes.run(ROOT, BIN, DATA, RUNS, interleaved, peak_rss_mib, digest, q)
    print("\n".join(enveloped), flush=True)

    stanza = os.path.join(ROOT, "examples/message-delay.xml")
    startup = hyperfine([f"{BIN} /@id {stanza}", f"xmllint --noout {stanza}"], 30, warmup=3)
    lean = startup_and_size()

    rows = ["| command | median s | MB/s | peak RSS 20 MB | peak RSS %.0f MB | throughput vs floor |" % size,
            "|---|---:|---:|---:|---:|---:|"]
    for (name, _), median, big_rss, small_rss in zip(QUERIES, medians, rss_big, rss_small):
        rows.append(f"| {name} | {median:.3f} | {size / median:.1f} | {small_rss:.1f} MiB | {big_rss:.1f} MiB | {floor / median:.2f} |")
    rows += ["", f"| {FILES} files ({files_size:.0f} MB together) | median s | MB/s | peak RSS | throughput vs floor |",
             "|---|---:|---:|---:|---:|"]
    for (name, _), median, rss in zip(MANY_FILES, many_medians, many_rss):
        rows.append(f"| {name} | {median:.3f} | {files_size / median:.1f} | {rss:.1f} MiB | {many_medians[0] / median:.2f} |")
    by_name = dict(zip([n for n, _ in QUERIES], medians))
    defaults = [n for n, _ in QUERIES if n.startswith("stanzaq") and "--threads 1" not in n]
    slowest = min(defaults, key=lambda n: floor / by_name[n])
    ratios = [
        ("stanzaq body# throughput / xmllint --stream, default threads (goal >= 1.6)", floor / by_name["stanzaq body#"]),
        ("stanzaq body# throughput / xmllint --stream, --threads 1 (goal >= 0.9)", floor / by_name["stanzaq body#, --threads 1"]),
        (f"slowest query with default threads / xmllint --stream: {slowest} (goal >= 1.4)", floor / by_name[slowest]),
        ("stanzaq body# on 1,000 files / xmllint --stream on them, default threads", many_medians[0] / many_medians[1]),
        ("stanzaq body# throughput / xmlstarlet (goal >= 2)", by_name["xmlstarlet sel //c:message/c:body"] / by_name["stanzaq body#"]),
        ("3 queries / body# alone (goal <= 1.3)", by_name["stanzaq 3 queries (TSV)"] / by_name["stanzaq body#"]),
        ("~ filter / = filter (goal <= 1.5)", by_name["stanzaq filter ~"] / by_name["stanzaq filter ="]),
    ]
    stanzaq_rss = [r for (n, _), r in zip(QUERIES * 2, rss_big + rss_small) if n.startswith("stanzaq")]
    stanzaq_rss += [r for (n, _), r in zip(MANY_FILES, many_rss) if n.startswith("stanzaq")]
    lines = rows + ["", "| ratio | value |", "|---|---:|"]
    lines += [f"| {name} | {value:.2f} |" for name, value in ratios]
    lines += [f"| stanzaq peak RSS, largest of all queries and both sizes (goal <= 48 MiB) | {max(stanzaq_rss):.1f} MiB |",
              "| output of every stanzaq command with default threads identical to --threads 1 | "
              + ("yes" if not differing else "NO: " + ", ".join(differing)) + " |",
              f"| single small stanza: stanzaq /@id, median (goal <= 15 ms) | {startup[0] * 1000:.1f} ms |",
              f"| single small stanza: xmllint --noout, median | {startup[1] * 1000:.1f} ms |"]
    lines += ["", "| start-up and size | value |", "|---|---:|"] + lean
    lines += [""] + real_shapes + [""] + enveloped
    lines += [""] + damage.run(BIN, DATA, RUNS, interleaved, q, log_small)
    lines += ["", "| log benchmark | value |", "|---|---:|",
              f"| stanzaq body# on a Prosody debug log ({log_size:.0f} MB), median | {log_medians[0]:.3f} s ({log_size / log_medians[0]:.1f} MB/s) |",
              f"| stanzaq body# on the same stanzas as XML ({log_xml_size:.0f} MB), median | {log_medians[1]:.3f} s ({log_xml_size / log_medians[1]:.1f} MB/s) |",
              f"| stanzas per second from the log / from XML (goal >= 0.7) | {log_medians[1] / log_medians[0]:.2f} |",
              f"| the same, --threads 1: log {log_medians[2]:.3f} s, XML {log_medians[3]:.3f} s | {log_medians[3] / log_medians[2]:.2f} |",
              f"| peak RSS on the log, {log_size:.0f} MB / 20 MB | {log_rss[0]:.1f} MiB / {log_rss[1]:.1f} MiB |"]
    table = "\n".join(lines)
    print(table)

    machine = "\n".join([
        "- CPU: " + sh("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2") + f" ({os.cpu_count()} cores), memory "
        + sh("free -g | awk '/Mem:/ {print $2}'") + f" GiB, {platform.system()} {platform.release()}",
        "- " + sh("swift --version 2>&1 | head -1") + "; " + sh("xmllint --version 2>&1 | head -1"),
        "- xmlstarlet " + sh("xmlstarlet --version | head -1") + "; " + sh("hyperfine --version"),
    ])
    commands = "\n".join("- " + name + ": `" + c.replace("{f}", "INPUT") + "`" for name, c in QUERIES)
    many = "\n".join("- " + name + ": `" + c.replace("{d}", "FILES") + "`" for name, c in MANY_FILES)
    with open(os.path.join(ROOT, "benchmarks/RESULTS.md"), "w") as out:
        out.write(f"""# Benchmark results

Written by `make bench` (benchmarks/run.py); medians of {RUNS} runs after 1 warm-up, the
commands of each table run in turn, round after round (so that the machine's drift over
the minutes of a table reaches every command alike; the single small stanza is timed by
hyperfine, which corrects for the shell), peak RSS from `/usr/bin/time -f %M`. INPUT is the shared corpus of XEP stanzas without comments,
repeated to {size:.0f} MB as one XMPP stream (and to 20 MB for the second RSS column); FILES is
its examples dealt into {FILES} streams of {files_size:.0f} MB together (benchmarks/make-files.py).
stanzaq runs with the default threads (one per CPU) unless `--threads 1` is given; before the
timings, the output of every stanzaq command (stdout, stderr, exit status) is checked to be
identical to that of the same command with `--threads 1`. The machine is shared and noisy:
compare ratios within one run, not seconds across runs.

{machine}

{table}

Commands (output to /dev/null):

{commands}
{many}
- single small stanza: `stanzaq /@id examples/message-delay.xml` and `xmllint --noout examples/message-delay.xml` (30 runs)
- start-up: `stanzaq /@id < ONE` and `xmllint --noout - < ONE`, each started with posix_spawn (no shell) and
  timed to its exit, in turn, 300 runs after 20 warm-up runs; ONE is a single chat message of 160 bytes; the
  size is that of the release binary after `strip`
- log: `stanzaq body# LOG` and `stanzaq body# LOG-STANZAS.xml` (and both with `--threads 1`), where LOG is a Prosody debug log of the corpus's
  stanzas written by benchmarks/make-log.py (RECV/SEND lines, their start-tag lines, other text) and
  LOG-STANZAS.xml the same stanzas as one stream
""")


if __name__ == "__main__":
    main()
