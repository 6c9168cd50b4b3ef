export { PLAN_REJECTED_LINE, runTask, type RunTaskHooks, type TaskOutcome } from './run-task.ts';
export { runProcess, type ProcessResult, type RunProcessOptions } from './run-process.ts';
export {
  TASK_MARK_VARIABLE,
  createTaskMark,
  createTaskMarkScope,
  killMarkedProcesses,
  listMarkedTaskIds,
} from './process-sweep.ts';
export { createRedactor, REDACTED } from './redact.ts';
export { TaskStopped } from './step-runner.ts';
export { readRemoteHead } from './git.ts';
export { prepareWorkRoot, privateFilesRoot, projectCheckoutsDirectory } from './workspace.ts';
export { createRunnerAgent } from './agent/runner-agent.ts';
export { RunnerRefused, createRunnerClient } from './agent/runner-client.ts';
