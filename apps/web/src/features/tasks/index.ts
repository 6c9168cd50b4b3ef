/**
 * What the app's routes use of tasks: the template pages' TemplateTaskList, TemplateStatsChart and
 * LastTasksRow (the schedule page shows LastTasksRow too).
 */
export { TemplateTaskList } from './components/template-task-list.tsx';
export { TemplateStatsChart } from './components/template-stats-chart.tsx';
export { LastTasksRow } from './components/last-tasks-row.tsx';
