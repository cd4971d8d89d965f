/**
 * CPU pinning with `taskset` (Linux): the bench server on one core, the measured client on the other,
 * so they do not steal each other's time. Falls back to unpinned (and says so) when `taskset` is
 * missing or the machine has fewer than two CPUs. `BENCH_PIN=0` turns pinning off.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** The core of the measured client process. */
export const CLIENT_CPU = 0;
/** The core of the bench server process. */
export const SERVER_CPU = 1;

let available;

/** True when `taskset` works here and there are at least two CPUs (cached). */
export function canPin() {
  if (available !== undefined) return available;
  if (process.env.BENCH_PIN === '0' || os.cpus().length < 2) return (available = false);
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
    available = true;
  } catch {
    available = false;
  }
  return available;
}

/** Pins every thread of process `pid` to `cpu`; returns false (unpinned) when that is not possible. */
export function pinProcess(pid, cpu) {
  if (!canPin()) return false;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** `[command, args]` that runs `command args` pinned to `cpu` (unchanged when pinning is not available). */
export function pinnedCommand(cpu, command, args) {
  return canPin() ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

/** A human description of the pinning in force, for reports. */
export function pinningNote() {
  return canPin()
    ? `pinned with taskset: server on CPU ${SERVER_CPU}, client on CPU ${CLIENT_CPU}`
    : 'UNPINNED (taskset unavailable, fewer than 2 CPUs, or BENCH_PIN=0)';
}
