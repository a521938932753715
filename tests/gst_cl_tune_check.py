#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""gst-cl-tune (tools/gst-cl-tune.c) on a small set of cases.

Runs the program on the CPU device (POCL) for clgaussian and clhistogram,
GRAY8 and RGBA, 320x256, with --sweep, and checks its report: exit status
0, the device and store lines, one row per case with positive times and
consistent ratios, and a summary that agrees with the rows. Then runs it
again with --keep (every case now stored: nothing measured), and with a
bad size (usage, exit status 2). Run by `meson test` as the test
`gst-cl-tune`: python3 gst_cl_tune_check.py PATH-TO-gst-cl-tune
"""
import math
import os
import re
import subprocess
import sys

ELEMENTS = ['clgaussian', 'clhistogram']
FORMATS = ['GRAY8', 'RGBA']
SIZE = '320x256'
ARGS = ['--device', 'cpu', '--elements', ','.join(ELEMENTS),
        '--formats', ','.join(FORMATS), '--sizes', SIZE]
COLUMNS = ['element', 'format', 'size', 'chosen', 'tuned ms', 'defaults ms',
           'speed-up', 'candidates', 'elapsed ms', 'sweep best', 'best ms',
           'chosen ms', 'chosen/best', 'defaults/best']
DECOMPOSITION = re.compile(r'^(strips|tiles) rows=(auto|\d+) pixels=(auto|\d+) '
                           r'group=(auto|\d+)$')
SUMMARY = re.compile(r"^summary: (\d+) of (\d+) cases chose within 5% of the "
                     r"sweep's best; worst chosen/best ([0-9.]+|inf) \((.+)\)$")


class CheckError(Exception):
    pass


def check(cond, what):
    if not cond:
        raise CheckError(what)


def run(program, args):
    proc = subprocess.run([program] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=900)
    print('$ gst-cl-tune ' + ' '.join(args))
    print(proc.stdout, end='')
    print(proc.stderr, end='', file=sys.stderr)
    return proc


def parse_table(out, n_columns):
    """The device, the store and the rows (lists of cells) of a report."""
    lines = out.splitlines()
    check(len(lines) > 4, 'report too short')
    m = re.match(r'^device: (.+)$', lines[0])
    check(m and m.group(1) != '(none)', 'no device line: %r' % lines[0])
    m = re.match(r'^store:\s+(\S+)$', lines[1])
    check(m and m.group(1).endswith('clfilters'), 'no store line: %r' % lines[1])
    store = m.group(1)
    header = re.split(r'\s{2,}', lines[3].strip())
    check(header == COLUMNS[:n_columns], 'header %r' % header)
    rows = []
    for line in lines[4:]:
        if not line.strip():
            break
        cells = re.split(r'\s{2,}', line.strip())
        check(len(cells) == n_columns, 'row with %d cells: %r' % (len(cells), line))
        rows.append(cells)
    expected = sorted((e, f, SIZE) for e in ELEMENTS for f in FORMATS)
    check(sorted(tuple(r[:3]) for r in rows) == expected,
          'cases %r, expected %r' % ([r[:3] for r in rows], expected))
    return store, rows, lines


def positive(cell, what):
    try:
        v = float(cell)
    except ValueError:
        raise CheckError('%s is not a number: %r' % (what, cell))
    check(v > 0 and math.isfinite(v), '%s not positive: %r' % (what, cell))
    return v


def check_sweep(program):
    proc = run(program, ARGS + ['--sweep'])
    check(proc.returncode == 0, 'exit status %d' % proc.returncode)
    store, rows, lines = parse_table(proc.stdout, len(COLUMNS))
    ratios = []
    for r in rows:
        case = ' '.join(r[:3])
        check(DECOMPOSITION.match(r[3]), '%s: chosen %r' % (case, r[3]))
        check(DECOMPOSITION.match(r[9]), '%s: sweep best %r' % (case, r[9]))
        tuned = positive(r[4], case + ' tuned ms')
        default = positive(r[5], case + ' defaults ms')
        speedup = positive(r[6], case + ' speed-up')
        check(abs(speedup - default / tuned) < 0.01 + 0.01 * speedup,
              '%s: speed-up %s is not %s/%s' % (case, r[6], r[5], r[4]))
        check(int(r[7]) >= 1, case + ' candidates')
        check(float(r[8]) >= 0, case + ' elapsed ms')
        best = positive(r[10], case + ' best ms')
        chosen = positive(r[11], case + ' chosen ms')
        check(chosen >= best, '%s: chosen %s faster than the best %s' %
              (case, r[11], r[10]))
        ratio = positive(r[12], case + ' chosen/best')
        check(ratio >= 1.0, case + ' chosen/best below 1')
        ratios.append(ratio)
        # the defaults, all 0 in the device's default shape, are a candidate
        check(positive(r[13], case + ' defaults/best') >= 1.0,
              case + ' defaults/best below 1')
    summaries = [m for m in map(SUMMARY.match, lines) if m]
    check(len(summaries) == 1, 'no summary line')
    close, total, worst = (int(summaries[0].group(1)),
                           int(summaries[0].group(2)),
                           float(summaries[0].group(3)))
    check(total == len(rows), 'summary counts %d cases' % total)
    # rounded to 2 decimals: 1.04 or less is within 5 %, above 1.05 is not
    check(sum(r <= 1.04 for r in ratios) <= close <= sum(r <= 1.05 for r in ratios),
          'summary says %d within 5 %%, rows %r' % (close, ratios))
    check(abs(worst - max(ratios)) < 0.006,
          'worst %s is not the rows\' %s' % (worst, max(ratios)))
    check(os.path.isdir(store) and any(n.endswith('.ini') for n in os.listdir(store)),
          'nothing stored in ' + store)


def check_keep(program):
    proc = run(program, ARGS + ['--keep'])
    check(proc.returncode == 0, '--keep: exit status %d' % proc.returncode)
    _, rows, _ = parse_table(proc.stdout, 9)
    check(all(r[3] == 'stored' for r in rows), '--keep measured again')


def check_usage(program):
    for bad in (['--sizes', '100x100'], ['--sizes', '320x'], ['--elements', 'x'],
                ['--bogus']):
        proc = run(program, bad)
        check(proc.returncode == 2 and 'Usage' in proc.stderr,
              '%r: exit status %d' % (bad, proc.returncode))


def main():
    program = sys.argv[1]
    try:
        check_sweep(program)
        check_keep(program)
        check_usage(program)
    except (CheckError, subprocess.TimeoutExpired) as e:
        print('FAIL: %s' % e, file=sys.stderr)
        return 1
    print('gst-cl-tune: OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
