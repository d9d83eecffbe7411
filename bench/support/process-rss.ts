import { readFileSync } from 'node:fs';

/** A process's resident set in MiB (VmRSS in /proc/<pid>/status), or undefined once it is gone. */
export function rssMib(pid: number): number | undefined {
  return statusMib(pid, 'VmRSS');
}

/** The highest resident set the process has had so far (VmHWM), in MiB; undefined once it is gone. */
export function peakRssMib(pid: number): number | undefined {
  return statusMib(pid, 'VmHWM');
}

function statusMib(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const kib = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(
      readFileSync(`/proc/${pid}/status`, 'utf8'),
    )?.[1];
    return kib === undefined ? undefined : Number(kib) / 1024;
  } catch {
    return undefined;
  }
}

/** Samples `pid`'s RSS now and every second until `stop`, which answers the samples in MiB. */
export function sampleRssEverySecond(pid: number): { stop: () => number[] } {
  const samples: number[] = [];
  const take = () => {
    const mib = rssMib(pid);
    if (mib !== undefined) samples.push(mib);
  };
  take();
  const timer = setInterval(take, 1000);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export interface RssSummary {
  firstMib: number;
  /** Median of the middle third of the samples: the level under steady load. */
  middleMedianMib: number;
  lastMib: number;
  maxMib: number;
  /** Highest of the last 10 samples (10 s). */
  lastTenMaxMib: number;
  /** The last 10 s stayed within 10% of the middle third's median: memory did not keep growing. */
  flat: boolean;
}

export function summariseRss(samples: number[]): RssSummary | undefined {
  if (samples.length === 0) return undefined;
  const third = Math.floor(samples.length / 3);
  const middle = samples.slice(third, Math.max(third + 1, samples.length - third)).sort((a, b) => a - b);
  const middleMedianMib = middle[Math.floor(middle.length / 2)]!;
  const lastTenMaxMib = Math.max(...samples.slice(-10));
  return {
    firstMib: samples[0]!,
    middleMedianMib,
    lastMib: samples[samples.length - 1]!,
    maxMib: Math.max(...samples),
    lastTenMaxMib,
    flat: lastTenMaxMib <= middleMedianMib * 1.1,
  };
}
