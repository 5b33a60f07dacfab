// Small helpers the benchmarks share: timing, percentiles and the `BENCH <name> <value> <unit>` line.

import { performance } from "node:perf_hooks";

/** Progress and context for a person, on stderr (stdout carries only BENCH lines). */
export const log = (message: string) => console.error(`[bench] ${message}`);

/** Prints one figure as `BENCH <name> <value> <unit>`. */
export const bench = (name: string, value: number, unit: string) => console.log(`BENCH ${name} ${value.toFixed(value < 10 ? 2 : 1)} ${unit}`);

/** The nearest-rank percentile: the smallest sample at or above `fraction` (0–1) of them. */
export function percentile(samples: number[], fraction: number): number {
  if (samples.length === 0) throw new RangeError("A percentile needs at least one sample");
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length * fraction) - 1)]!;
}

/** The 95th percentile (nearest rank). */
export const p95 = (samples: number[]) => percentile(samples, 0.95);

/** The middle sample (the upper one of the two middles for an even count). */
export function median(samples: number[]): number {
  if (samples.length === 0) throw new RangeError("A median needs at least one sample");
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

/** Runs `fn` `samples` times one after another; returns each call's duration in ms. */
export async function measure(samples: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await fn(i);
    times.push(performance.now() - started);
  }
  return times;
}

/** Runs `fn` and logs how long it took, in seconds. */
export async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  log(`${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
