#!/usr/bin/env python3
"""Read the report of `sysbench fileio ... run` (sysbench 1.0.20) or of
`dbio sysbench fileio ... run` from standard input or a file, and print its
figures as one JSON object: reads_per_s, writes_per_s, fsyncs_per_s,
read_mib_per_s, written_mib_per_s, total_time_s, events, latency_ms_min,
_avg, _max, _pct (with percentile), _sum, and threads_events_avg. A field
that is missing, or a report it cannot read, is an error (exit 1): the
same reader for both programs shows that dbio's report keeps sysbench's
labels and units."""
import json
import re
import sys

FIELDS = [
    ("reads_per_s", r"^\s+reads/s:\s+([0-9.]+)$"),
    ("writes_per_s", r"^\s+writes/s:\s+([0-9.]+)$"),
    ("fsyncs_per_s", r"^\s+fsyncs/s:\s+([0-9.]+)$"),
    ("read_mib_per_s", r"^\s+read, MiB/s:\s+([0-9.]+)$"),
    ("written_mib_per_s", r"^\s+written, MiB/s:\s+([0-9.]+)$"),
    ("total_time_s", r"^\s+total time:\s+([0-9.]+)s$"),
    ("events", r"^\s+total number of events:\s+([0-9]+)$"),
    ("latency_ms_min", r"^\s+min:\s+([0-9.]+)$"),
    ("latency_ms_avg", r"^\s+avg:\s+([0-9.]+)$"),
    ("latency_ms_max", r"^\s+max:\s+([0-9.]+)$"),
    ("latency_ms_sum", r"^\s+sum:\s+([0-9.]+)$"),
    ("threads_events_avg", r"^\s+events \(avg/stddev\):\s+([0-9.]+)/"),
]
PCT = r"^\s+(\d+)th percentile:\s+([0-9.]+)$"


def parse(text):
    out = {}
    # the sections in sysbench's order
    order = ["File operations:", "Throughput:", "General statistics:", "Latency (ms):", "Threads fairness:"]
    at = [text.find("\n" + s + "\n") for s in order]
    if -1 in at or at != sorted(at):
        raise ValueError("not a sysbench fileio report: sections missing or out of order")
    for name, rx in FIELDS:
        m = re.search(rx, text, re.M)
        if not m:
            raise ValueError("no %s line" % name)
        out[name] = float(m.group(1)) if "." in m.group(1) else int(m.group(1))
    m = re.search(PCT, text, re.M)
    if m:
        out["percentile"] = int(m.group(1))
        out["latency_ms_pct"] = float(m.group(2))
    return out


def main():
    text = open(sys.argv[1]).read() if len(sys.argv) > 1 else sys.stdin.read()
    try:
        print(json.dumps(parse(text), sort_keys=True))
    except ValueError as e:
        print("sysbench_parse: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
