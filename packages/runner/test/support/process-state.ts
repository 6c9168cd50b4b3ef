import { readFileSync } from 'node:fs';

/** Running means not gone and not a zombie: a killed process lingers as one until its new parent reaps it. */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** The descendants a plain process-group kill misses, and one it reaches (`group`). */
const SLEEPER_KINDS = ['group', 'setsid', 'double-fork', 'double-fork-setsid'] as const;

/**
 * A bash script that leaves a sleeper of every kind, each writing its own pid (exec keeps it) to
 * `<dir>/<kind>.pid`, says "planted" once all are there and runs `rest`. The sleepers sleep
 * `seconds`, a number each test file picks so that its clean-up knows its own.
 */
export function plantingScript(dir: string, seconds: number, rest: string): string {
  const sleeper = (kind: string) => `bash -c 'echo $$ > ${dir}/${kind}.pid; exec sleep ${seconds}'`;
  return [
    `${sleeper('group')} &`,
    `setsid ${sleeper('setsid')} &`,
    `( ${sleeper('double-fork')} & ) &`,
    `( setsid ${sleeper('double-fork-setsid')} & ) &`,
    `while [ "$(ls ${dir} | wc -l)" -lt ${SLEEPER_KINDS.length} ]; do sleep 0.05; done`,
    'echo planted',
    rest,
  ].join('\n');
}

/** The pids the planted sleepers wrote. */
export function plantedPids(dir: string): number[] {
  return SLEEPER_KINDS.map((kind) => Number(readFileSync(`${dir}/${kind}.pid`, 'utf8').trim()));
}
