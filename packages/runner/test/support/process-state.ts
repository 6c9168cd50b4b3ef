import { readFileSync } from 'node:fs';

/** Running means not gone and not a zombie: a killed process lingers as one until its new parent reaps it. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
