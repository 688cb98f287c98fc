"""A log in an envelope (issue 44): Prosody's real log (Tests/Fixtures/real-logs)
repeated to BENCH_SPEED_MB (100) as `docker logs -t` prints it (an RFC 3339
time with nanoseconds before every line) and as Docker's json-file driver
stores it (a JSON object a line, `<` and `>` as Go writes them), against the
same log unwrapped, measured in the same run:

- every stanza (`-c -e /$`) with the default threads: the unwrapped log's time
  over the enveloped one's (the enveloped log's speed as a share of the plain
  log's);
- the enveloped log with the default threads against `--threads 1`, paired
  rounds as speed.py pairs them;
- the selective query (`-c -e /iq<type=error>@id`) against `grep -c` of the
  literal it needs.

Every enveloped command's output is compared with its `--threads 1` twin's,
and its count with the unwrapped log's. BENCH_ONLY=envelopes runs this part alone.
"""
import json
import os
import statistics

from speed import GREP_PATTERN, PAIRED_RUNS, SELECTIVE, repeated_log, verdict

SPEED_GOAL = 0.8     # enveloped speed / unwrapped speed, every stanza, default threads
THREAD_GOAL = 1.6    # default threads / --threads 1, enveloped, every stanza
GREP_GOAL = 0.5      # stanzaq's speed / grep -c's, selective query, enveloped
TIME = "2026-11-25T19:05:14.%09dZ"


def wrapped(plain, data, megabytes):
    """The plain log as `docker logs -t` and as Docker's json-file write it."""
    paths = {}
    for name in ("docker-t", "docker-json"):
        path = os.path.join(data, f"envelope-{name}-{megabytes:g}MB")
        paths[name] = path
        if os.path.exists(path):
            continue
        with open(plain, "rb") as source, open(path + ".tmp", "wb") as out:
            for index, line in enumerate(source):
                time = TIME % (index % 1_000_000_000)
                text = line.decode("utf-8", "replace")
                if name == "docker-t":
                    out.write(f"{time} {text}".encode())
                else:
                    value = json.dumps(text, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e")
                    out.write(f'{{"log":{value},"stream":"stdout","time":"{time}"}}\n'.encode())
        os.rename(path + ".tmp", path)
    return paths


def run(root, binary, data, runs, interleaved, peak_rss_mib, digest, q):
    megabytes = float(os.environ.get("BENCH_SPEED_MB", "100"))
    plain = repeated_log(root, data, "logs/prosody.log", megabytes)
    paths = wrapped(plain, data, megabytes)
    lines = ["| issue 44: a log in an envelope | value |", "|---|---:|"]
    differing = []
    every_plain = f"{binary} -c -e {q('/$')} {plain}"
    plain_count = digest(every_plain)
    for name, path in paths.items():
        size = os.path.getsize(path) / 1e6
        every = f"{binary} -c -e {q('/$')} {path}"
        every_one = f"{binary} --threads 1 -c -e {q('/$')} {path}"
        if digest(every) != digest(every_one):
            differing.append(f"{name}: --threads 1")
        if digest(every) != plain_count:
            differing.append(f"{name}: count of the unwrapped log")
        t_every, t_plain = interleaved([every, every_plain], runs)
        every_times, one_times = interleaved([every, every_one], max(runs, PAIRED_RUNS), rounds=True)
        threads = statistics.median(one / every for one, every in zip(one_times, every_times))
        share = t_plain / t_every
        lines += [
            f"| {name} ({size:.0f} MB), every stanza: {t_every:.2f} s, unwrapped log {t_plain:.2f} s (default threads); "
            f"speed / unwrapped speed (goal >= {SPEED_GOAL:g}: {verdict(share >= SPEED_GOAL)}) | {share:.2f} |",
            f"| {name}, every stanza: default threads / --threads 1 {statistics.median(one_times):.2f} s, median of "
            f"{len(every_times)} paired runs (goal >= {THREAD_GOAL:g}: {verdict(threads >= THREAD_GOAL)}) | {threads:.2f} |",
        ]
        selective = f"{binary} -c -e {q(SELECTIVE)} {path}"
        selective_one = f"{binary} --read-all --threads 1 -c -e {q(SELECTIVE)} {path}"
        if digest(selective) != digest(selective_one):
            differing.append(f"{name}: selective")
        grep = "sh -c " + q(f"grep -c {q(GREP_PATTERN)} {path} | cat")
        t_sel, t_grep = interleaved([selective, grep], runs)
        lines.append(f"| {name}, `-c -e {SELECTIVE}` {t_sel:.3f} s, grep -c {t_grep:.3f} s; speed / grep's "
                     f"(goal >= {GREP_GOAL:g}: {verdict(t_grep / t_sel >= GREP_GOAL)}) | {t_grep / t_sel:.2f} |")
        lines.append(f"| {name}, peak RSS, every stanza | {peak_rss_mib(every):.1f} MiB |")
    lines.append("| output identical to --threads 1, counts to the unwrapped log's | "
                 + ("yes" if not differing else "NO: " + ", ".join(differing)) + " |")
    return lines
