#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later (see COPYING)
"""run-tests.py [-C BUILDDIR] [--suite NAME] [-j N] [-t MULT] [TEST...]

Runs the tests of a configured meson build folder as `meson test` would,
without meson, from wherever the folder and the sources are now: on a
machine where meson is not installed, or where the build folder was copied
to another directory (scripts/test-gpu.sh, the lent GPU machine).

The list of tests, their commands, environments, timeouts and expected
results come from meson's own introspection (BUILDDIR/meson-info/
intro-tests.json). Paths under the source and build directories recorded
there are moved to this checkout and BUILDDIR. Each test gets the caller's
environment plus the test's variables, as meson gives them (LD_LIBRARY_PATH
is prepended to), with these exceptions:

- GST_PLUGIN_SYSTEM_PATH_1_0 and GST_PLUGIN_SCANNER_1_0 name the machine's
  GStreamer installation, not the build: where the caller sets them (as
  .gpu/env.sh does for the GStreamer runtime it unpacks), the caller's
  values win.
- MALLOC_PERTURB_ and the sanitizers' options get meson's defaults.

Tests run N at a time (-j, default: the machine's cores, as meson does),
the longest first (meson's priority), those marked is_parallel: false
alone. A test that cannot run on this machine (a Python module, an element,
a device it needs is missing) says so itself and exits 77, as meson
expects: it is reported SKIP with its reason. Nothing is rebuilt: build
first.

Exit status: 0 when no test failed, 1 otherwise. Each test's output is in
BUILDDIR/meson-logs/run-tests/NAME.txt; a failed test's last lines are
printed.
"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-C', dest='builddir', default='build')
    ap.add_argument('--suite', action='append', default=[],
                    help='only the tests of this suite (check, opencv, docs, examples)')
    ap.add_argument('-j', '--jobs', type=int, default=os.cpu_count() or 1,
                    help='tests run at a time (default: the cores)')
    ap.add_argument('-t', '--timeout-multiplier', type=float, default=1.0)
    ap.add_argument('--list', action='store_true')
    ap.add_argument('tests', nargs='*')
    args = ap.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    build = os.path.abspath(args.builddir)
    info = os.path.join(build, 'meson-info')
    try:
        with open(os.path.join(info, 'meson-info.json')) as f:
            dirs = json.load(f)['directories']
        with open(os.path.join(info, 'intro-tests.json')) as f:
            tests = json.load(f)
    except OSError as e:
        sys.exit(f'run-tests.py: {build} is not a configured meson build folder ({e})')

    # the recorded build folder first: it usually lies inside the sources
    moves = sorted([(dirs['build'], build), (dirs['source'], root)],
                   key=lambda m: -len(m[0]))
    pattern = re.compile('|'.join(re.escape(old) + r'(?=/|:|$)' for old, _ in moves))
    new_of = dict(moves)

    def move(s):
        return pattern.sub(lambda m: new_of[m.group(0)], s)

    if args.suite:
        tests = [t for t in tests
                 if any(s.split(':')[-1] in args.suite for s in t['suite'])]
    if args.tests:
        unknown = set(args.tests) - {t['name'] for t in tests}
        if unknown:
            sys.exit(f'run-tests.py: no test named {", ".join(sorted(unknown))}')
        tests = [t for t in tests if t['name'] in args.tests]
    if args.list:
        print('\n'.join(t['name'] for t in tests))
        return 0

    if (dirs['build'], dirs['source']) != (build, root):
        print(f'run-tests.py: {dirs["source"]} -> {root}, {dirs["build"]} -> {build}')
    logdir = os.path.join(build, 'meson-logs', 'run-tests')
    os.makedirs(logdir, exist_ok=True)
    caller = dict(os.environ)
    width = max(len(t['name']) for t in tests) if tests else 0
    lock = threading.Lock()
    results = {}

    def environment(t):
        env = dict(caller)
        for k, v in t['env'].items():
            v = move(v)
            if k in ('GST_PLUGIN_SYSTEM_PATH_1_0', 'GST_PLUGIN_SCANNER_1_0') and caller.get(k):
                continue
            if k == 'LD_LIBRARY_PATH' and caller.get(k):
                v = v + ':' + caller[k]
            env[k] = v
        env['MESON_TEST_ITERATION'] = '1'
        if not env.get('MALLOC_PERTURB_'):
            env['MALLOC_PERTURB_'] = str(random.randint(1, 255))
        env.setdefault('ASAN_OPTIONS', 'halt_on_error=1:abort_on_error=1:print_summary=1')
        env.setdefault('UBSAN_OPTIONS', 'halt_on_error=1:abort_on_error=1:print_summary=1:'
                       'print_stacktrace=1')
        return env

    def run(t):
        name = t['name']
        cmd = [move(c) for c in t['cmd']]
        env = environment(t)
        log = os.path.join(logdir, name + '.txt')
        timeout = t['timeout'] * args.timeout_multiplier if t['timeout'] else None
        start = time.monotonic()
        with open(log, 'w') as f:
            f.write('command: ' + ' '.join(cmd) + '\n')
            f.write(''.join(f'env: {k}={env[k]}\n' for k in sorted(t['env'])))
            f.flush()
            proc = subprocess.Popen(cmd, env=env, cwd=move(t['workdir'] or build),
                                    stdout=f, stderr=subprocess.STDOUT,
                                    start_new_session=True)
            try:
                rc = proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                rc = None
        took = time.monotonic() - start
        with open(log, errors='replace') as f:
            out = f.read()
        if rc is None:
            status = 'TIMEOUT'
        elif rc == 77:
            status = 'SKIP'
        elif (rc == 0) != bool(t.get('should_fail')):
            status = 'OK'
        else:
            status = 'FAIL'
        checks = re.findall(r'^\d+%: Checks: .*$', out, re.M)
        detail = f'  {checks[-1]}' if checks else ''
        if status == 'SKIP':
            lines = [l for l in out.splitlines() if not l.startswith(('command:', 'env:'))]
            detail = f'  ({lines[-1].strip()})' if lines else ''
        with lock:
            results[name] = status
            print(f'{len(results):>2}/{len(tests)} {name:<{width}} {status:<8} {took:7.1f}s{detail}',
                  flush=True)
            if status in ('FAIL', 'TIMEOUT'):
                print(f'--- {log} (last lines) ---')
                print('\n'.join(out.splitlines()[-60:]))
                print('---', flush=True)

    # meson's order: the highest priority first, then as defined
    order = sorted(tests, key=lambda t: -t.get('priority', 0))
    start = time.monotonic()
    with ThreadPoolExecutor(max_workers=max(args.jobs, 1)) as pool:
        list(pool.map(run, [t for t in order if t.get('is_parallel', True)]))
    for t in order:
        if not t.get('is_parallel', True):
            run(t)

    counts = {s: sum(1 for r in results.values() if r == s)
              for s in ('OK', 'FAIL', 'TIMEOUT', 'SKIP')}
    print(f'\nOk: {counts["OK"]}  Fail: {counts["FAIL"]}  Timeout: {counts["TIMEOUT"]}  '
          f'Skipped: {counts["SKIP"]}   {time.monotonic() - start:.0f} s with {args.jobs} '
          f'jobs   (logs in {logdir})')
    return 1 if counts['FAIL'] or counts['TIMEOUT'] else 0


if __name__ == '__main__':
    sys.exit(main())
