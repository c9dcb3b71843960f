import { eventBaseName } from '../../model/profile';
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  isJitDso,
  isKernelDso,
  newFrameFields,
  newHeaderFields,
  parseFrame,
  parseHeader,
  parsePeriod,
} from './perf-line';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

function header(line: string) {
  const h = newHeaderFields();
  if (!parseHeader(line, h)) return null;
  const cut = (s: number, e: number) => (s < 0 ? null : line.slice(s, e));
  return {
    comm: cut(h.commStart, h.commEnd),
    pid: cut(h.pidStart, h.pidEnd),
    tid: cut(h.tidStart, h.tidEnd),
    period: cut(h.periodStart, h.periodEnd),
    event: cut(h.eventStart, h.eventEnd),
    rest: h.restStart < 0 ? null : line.slice(h.restStart),
  };
}

function frame(line: string) {
  const f = newFrameFields();
  if (!parseFrame(line, 0, f)) return null;
  return {
    address: line.slice(f.addrStart, f.addrEnd),
    symbol: line.slice(f.symStart, f.symEnd),
    dso: f.dsoStart < 0 ? null : line.slice(f.dsoStart, f.dsoEnd),
  };
}

describe('parseHeader', () => {
  it('reads COMM from the right, so a comm may end in a number', () => {
    expect(header('toyc worker 1 13266   678.130161:    2004008 cpu-clock:ppp: ')).toEqual({
      comm: 'toyc worker 1',
      pid: null,
      tid: '13266',
      period: '2004008',
      event: 'cpu-clock:ppp',
      rest: null,
    });
  });

  it('reads PID/TID, [CPU], and headers without a period', () => {
    expect(header('toyc cgu.0 17570/17572   681.404221:    1001001 cpu-clock:ppp: ')).toMatchObject({
      comm: 'toyc cgu.0',
      pid: '17570',
      tid: '17572',
    });
    expect(header('sqlite3 17858 [001]   717.475609:    1001001 cpu-clock:ppp: ')).toMatchObject({ comm: 'sqlite3', tid: '17858' });
    expect(header('swapper     0/0     [000] 7628263.042515: cycles: ')).toMatchObject({
      comm: 'swapper',
      pid: '0',
      tid: '0',
      period: null,
      event: 'cycles',
    });
    expect(header('ksoftirqd/0     3/3     [000] 7628263.04: cycles: ')).toMatchObject({ comm: 'ksoftirqd/0', pid: '3', tid: '3' });
    expect(header('kworker/0:1H-kb 12 [000] 1.5:  1 cpu-clock: ')).toMatchObject({ comm: 'kworker/0:1H-kb', tid: '12' });
  });

  it('reads the task perf could not name, printed as :-1 -1 in system-wide recordings', () => {
    expect(header(':-1    -1 [000] 16144.960818:  sched:sched_switch: prev_comm=prog prev_pid=27959 prev_prio=120 prev_state=X ==> next_comm=prog')).toMatchObject({
      comm: ':-1',
      tid: '-1',
      event: 'sched:sched_switch',
    });
    expect(header(':-1 -1/-1 [001] 1.5: 1001001 cpu-clock/freq=999/: ')).toMatchObject({ comm: ':-1', pid: '-1', tid: '-1', event: 'cpu-clock/freq=999/' });
    // Only -1: a dash before other digits is part of the COMM.
    expect(header('a-12 7 [000] 1.5: 1 cycles: ')).toMatchObject({ comm: 'a-12', tid: '7' });
  });

  it('finds the frame of a sample without call chain on the same line', () => {
    expect(header('         sqlite3 17882 [000]   722.658610:    1001001 cpu-clock:ppp:  ffffffff821e9476 copy+0x6 ([kernel.kallsyms])')).toMatchObject({
      comm: 'sqlite3',
      event: 'cpu-clock:ppp',
      rest: 'ffffffff821e9476 copy+0x6 ([kernel.kallsyms])',
    });
    expect(header('           false 39654 19115.489719:          1 cycles:      7fa68b1f2d84 _dl_start+0x4 (/usr/lib/ld-2.31.so)')).toMatchObject({
      event: 'cycles',
      rest: '7fa68b1f2d84 _dl_start+0x4 (/usr/lib/ld-2.31.so)',
    });
  });

  it('rejects frame lines, folded lines and text', () => {
    for (const line of [
      '\t           22e4b toyc::Resolver::resolve_block+0x1eb (/build/rust/toyc)',
      'main;parse;lex 12',
      'hello world',
      '# event : name = cpu-clock:ppp',
      ' 123 1.5: cycles:',
      'comm 12 1.5:',
      'comm 12 1.5: :',
      '',
    ]) {
      expect(header(line), line).toBeNull();
    }
  });

  // The regex from the issue, applied to every line of every fixture that is not a frame line.
  const SPEC = /^\s*(.+?)\s+(\d+)(?:\/(\d+))?\s+(?:\[\d+\]\s+)?[\d.]+:\s+(?:\d+\s+)?(\S+):/;
  it('agrees with the reference regex on every header line of every fixture', () => {
    const inferno = `${FIXTURES}third_party/inferno/tests/data/collapse-perf/`;
    const texts = [
      ...readdirSync(FIXTURES)
        .filter((f) => f.endsWith('.perf-script.txt'))
        .map((f) => readFileSync(FIXTURES + f, 'utf8')),
      ...readdirSync(inferno)
        .filter((f) => f.endsWith('.txt'))
        .map((f) => readFileSync(inferno + f, 'utf8')),
      readFileSync(`${FIXTURES}third_party/FlameGraph/test/perf-rust-Yamakaky-dcpu.txt`, 'utf8'),
      gunzipSync(readFileSync(`${FIXTURES}third_party/FlameGraph/example-perf-stacks.txt.gz`)).toString('utf8'),
    ];
    let checked = 0;
    for (const text of texts) {
      for (const line of text.split('\n')) {
        if (line.trim() === '' || line.startsWith('#') || /^\s+[0-9a-f]+ /.test(line)) continue;
        const m = SPEC.exec(line);
        const h = header(line);
        expect(h !== null, line).toBe(m !== null);
        if (!m || !h) continue;
        expect(h.comm, line).toBe(m[1]);
        expect(h.tid, line).toBe(m[3] ?? m[2]);
        expect(h.event, line).toBe(m[4]);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(8000);
  });
});

describe('parseFrame', () => {
  it('splits address, symbol without offset, and DSO', () => {
    expect(frame('\t           22e4b toyc::Resolver::resolve_block+0x1eb (/build/rust/toyc)')).toEqual({
      address: '22e4b',
      symbol: 'toyc::Resolver::resolve_block',
      dso: '/build/rust/toyc',
    });
    expect(frame('\t    7f443cc8af43 __mmap64 (inlined)')).toEqual({ address: '7f443cc8af43', symbol: '__mmap64', dso: 'inlined' });
    expect(frame('        ffffffffc09ace93 bpf_prog_2b9_uni+0xb80 (bpf_prog_2b9_uni)')).toMatchObject({ symbol: 'bpf_prog_2b9_uni' });
  });

  it('keeps parentheses, spaces and + inside symbols', () => {
    const sym = '<alloc::boxed::Box<dyn core::ops::function::FnOnce<(), Output = ()> + core::marker::Send> as core::ops::function::FnOnce<()>>::call_once';
    expect(frame(`\t           62dfe ${sym}+0x14e (inlined)`)).toEqual({ address: '62dfe', symbol: sym, dso: 'inlined' });
    expect(frame('\t 1 std::function<int (int, int)>::operator() (/x/a.out)')).toMatchObject({
      symbol: 'std::function<int (int, int)>::operator()',
      dso: '/x/a.out',
    });
    expect(frame('\t 1 foo+0x1 (/tmp/lib.so (deleted))')).toMatchObject({ symbol: 'foo', dso: '/tmp/lib.so (deleted)' });
    expect(frame('\t 1 a+0xzz (/x)')).toMatchObject({ symbol: 'a+0xzz' });
  });

  it('accepts a frame without DSO, and an empty symbol', () => {
    expect(frame('            562039122f0f some_function+0xbf')).toEqual({ address: '562039122f0f', symbol: 'some_function', dso: null });
    expect(frame('\t7f1e2215d058  (/lib/x86_64-linux-gnu/libc-2.15.so)')).toEqual({
      address: '7f1e2215d058',
      symbol: '',
      dso: '/lib/x86_64-linux-gnu/libc-2.15.so',
    });
  });

  it('rejects lines that are not ADDRESS SYMBOL', () => {
    expect(frame('\t          THIS_IS_A_WEIRD_LINE')).toBeNull();
    expect(frame('\t          401b97')).toBeNull();
    expect(frame('\t          401b97   ')).toBeNull();
    expect(frame('         sqlite3 17882 [000] 1.5: 1 cpu-clock:')).toBeNull();
  });
});

describe('event, period and DSO helpers', () => {
  it('strips perf modifiers but not tracepoint names', () => {
    expect(eventBaseName('cpu-clock:ppp')).toBe('cpu-clock');
    expect(eventBaseName('cycles:u')).toBe('cycles');
    expect(eventBaseName('cpu-clock:uhH')).toBe('cpu-clock');
    expect(eventBaseName('cycles')).toBe('cycles');
    expect(eventBaseName('sched:sched_switch')).toBe('sched:sched_switch');
    // Terms and PMUs, as `perf record -e cpu-clock/freq=999/` and `-e cpu/cycles/u` print them.
    expect(eventBaseName('cpu-clock/freq=999/')).toBe('cpu-clock');
    expect(eventBaseName('cpu-clock/freq=999/:u')).toBe('cpu-clock');
    expect(eventBaseName('cpu/cycles/u')).toBe('cycles');
    expect(eventBaseName('cpu/event=0x3c,umask=0/')).toBe('cpu');
  });

  it('parses periods strictly', () => {
    const p = (s: string) => parsePeriod(s, 0, s.length);
    expect(p('2004008')).toBe(2004008);
    expect(p('0')).toBe(0);
    expect(p('-5')).toBe(-1);
    expect(p('12a')).toBe(-1);
    expect(p('1.5')).toBe(-1);
    expect(p('123456789012345678901')).toBe(-1);
  });

  it('classifies kernel and JIT DSOs as inferno does', () => {
    for (const dso of ['[kernel.kallsyms]', '[vdso]', '[nf_conntrack_ipv4]', '/lib/modules/5.4/mlx5_core.ko', '/usr/lib/debug/boot/vmlinux-5.4.14-cloudflare-2020.1.11', 'vmlinux']) {
      expect(isKernelDso(dso), dso).toBe(true);
    }
    for (const dso of ['[unknown]', '/usr/lib/libc.so.6', 'bpf_prog_2b956549c660136a_uni_l4lb', 'inlined', '/usr/lib/vmlinux.d/x']) {
      expect(isKernelDso(dso), dso).toBe(false);
    }
    expect(isJitDso('/tmp/perf-10487.map')).toBe(true);
    expect(isJitDso('/tmp/jitted-31714-4145673320.so')).toBe(true);
    expect(isJitDso('/usr/lib/libjvm.so')).toBe(false);
  });
});

describe('parseHeader: headers without a timestamp', () => {
  const read = (line: string) => {
    const h = newHeaderFields();
    if (!parseHeader(line, h)) return null;
    const part = (a: number, b: number) => (a < 0 ? null : line.slice(a, b));
    return { comm: part(h.commStart, h.commEnd), pid: part(h.pidStart, h.pidEnd), tid: part(h.tidStart, h.tidEnd), time: part(h.timeStart, h.timeEnd), period: part(h.periodStart, h.periodEnd), event: part(h.eventStart, h.eventEnd), rest: h.restStart < 0 ? null : line.slice(h.restStart) };
  };
  it('reads COMM [PID/]TID [[CPU]] [PERIOD] EVENT: as perf 3.x and -F comm,pid,event print them', () => {
    expect(read('java  3244 cpu-clock: ')).toEqual({ comm: 'java', pid: null, tid: '3244', time: null, period: null, event: 'cpu-clock', rest: null });
    expect(read('node-v011 31912 cpu-clock: ')).toMatchObject({ comm: 'node-v011', tid: '31912', period: null });
    expect(read('java 19983 cycles:')).toMatchObject({ comm: 'java', tid: '19983', event: 'cycles' });
    expect(read('iperf 27409/28744 [000] 1000 cycles:u: ')).toMatchObject({ comm: 'iperf', pid: '27409', tid: '28744', period: '1000', event: 'cycles:u' });
    expect(read('toyc worker 1 13266 cpu-clock:')).toMatchObject({ comm: 'toyc worker', tid: '1', period: '13266' });
    expect(read('java 3244 cpu-clock:      7f1e214c24d9 SpinPause (/x/libjvm.so)')).toMatchObject({ tid: '3244', rest: '7f1e214c24d9 SpinPause (/x/libjvm.so)' });
  });
  it('says no to prose and frame lines', () => {
    for (const line of ['Chapter 2 notes: 3 items', 'hello world', 'ffffffff8103d0ca native_write_msr_safe ([kernel.kallsyms])', 'a;b 12', 'x 12.5: y']) expect(read(line), line).toBeNull();
  });
});
