/** An expected reason for a task to fail; its message is the task log's last word on it. */
export class TaskFailure extends Error {}
