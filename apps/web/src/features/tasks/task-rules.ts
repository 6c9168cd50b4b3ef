import { TASK_STATUS_RULES, type TaskStatus, type TaskWithTemplate } from '@gantry/contract';

export interface TaskButtons {
  confirm: boolean;
  reject: boolean;
  /** Stop when offered, with force once the task is already stopping. */
  stop: { force: boolean } | null;
  rerun: boolean;
}

/** Which actions the task log offers in a status. */
export function getTaskButtons(status: TaskStatus): TaskButtons {
  const rule = TASK_STATUS_RULES[status];
  return {
    confirm: rule.awaitsAnswer,
    reject: rule.awaitsAnswer,
    stop: rule.stop === null ? null : { force: rule.stop === 'force' },
    rerun: rule.final,
  };
}

/** Catalogue keys of the run and re-run buttons, which follow the template type. */
export function getRunLabelKey(templateType: string): 'tasks.run' | 'tasks.build' | 'tasks.deploy' {
  if (templateType === 'build') return 'tasks.build';
  if (templateType === 'deploy') return 'tasks.deploy';
  return 'tasks.run';
}

export function getRerunLabelKey(templateType: string): 'tasks.rerun' | 'tasks.rebuild' | 'tasks.redeploy' {
  if (templateType === 'build') return 'tasks.rebuild';
  if (templateType === 'deploy') return 'tasks.redeploy';
  return 'tasks.rerun';
}

/** The version a task shows: its own for a build, its build's for a deploy, none otherwise. */
export function getTaskVersion(
  task: Pick<TaskWithTemplate, 'tpl_type' | 'version' | 'build_task' | 'build_task_id'>,
): { version: string; buildTaskId: number | null } | null {
  if (task.tpl_type === 'build') return task.version ? { version: task.version, buildTaskId: null } : null;
  if (task.tpl_type === 'deploy') {
    const version = task.build_task?.version ?? task.version;
    return version ? { version, buildTaskId: task.build_task?.id ?? task.build_task_id } : null;
  }
  return null;
}

/** Build messages show the first 10 characters of the commit hash and the first 50 of its message. */
export function getCommitSummary(hash: string | null, message: string): { hash: string; message: string } | null {
  if (!hash) return null;
  return { hash: hash.slice(0, 10), message: message.slice(0, 50) };
}
