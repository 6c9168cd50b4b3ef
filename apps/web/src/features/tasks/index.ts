/**
 * What other areas use of tasks. Template pages: TemplateTaskList, TemplateStatsChart and
 * LastTasksRow; the project history: StopWaitingButton; links that open a template's new task dialog (?new_task=) or a task's log (?t=)
 * over the current page: useTaskLinks, or NEW_TASK_PARAM / TASK_PARAM by hand.
 */
export { TemplateTaskList } from './components/template-task-list.tsx';
export { StopWaitingButton } from './components/stop-waiting-button.tsx';
export { TemplateStatsChart } from './components/template-stats-chart.tsx';
export { LastTasksRow } from './components/last-tasks-row.tsx';
export { TaskStatusChip } from '../../components/task-status-chip.tsx';
export { TaskDate, TaskDuration, TaskLink } from './components/task-cells.tsx';
export { useTaskColumns } from './components/task-columns.tsx';
export { NEW_TASK_PARAM, SOURCE_TASK_PARAM, TASK_PARAM, useTaskLinks } from './components/task-links.ts';
export { HISTORY_PAGE_SIZE, fetchOlderTasks, lastTasksQuery, templateTasksQuery } from './api/tasks-queries.ts';
export { getRunLabelKey, getRerunLabelKey } from './task-rules.ts';
