/**
 * CPU time of the calling thread, where the system tells it (Linux: the scheduler's own count,
 * in nanoseconds), else of the whole process. The process's time also holds V8's helper
 * threads (concurrent marking, parallel scavenges), whose share depends on how often the other
 * core is free: on a busy machine it varies from run to run by more than the work does.
 */
import {readFileSync} from 'node:fs';

const SCHEDSTAT = '/proc/thread-self/schedstat';

function fromScheduler(): number | undefined {
  try {
    return Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

const processMs = () => {
  const {user, system} = process.cpuUsage();
  return (user + system) / 1000;
};

const read = fromScheduler() === undefined ? processMs : () => fromScheduler()!;

/** Milliseconds, from an arbitrary origin: compare two readings of the same thread. */
export function threadCpuMs(): number {
  return read();
}
