import { Permission } from '@gantry/contract';

/**
 * Who may change integrations. The seed gates the actions on updateProject; the server's management
 * routes ask for manageProjectResources (Semaphore's bit 4). Both are required so no button is offered
 * that the server would refuse.
 */
export const INTEGRATION_ACTIONS = Permission.updateProject | Permission.manageProjectResources;

/** An alias URL starts the integration's template, so only who may run tasks is shown one (the server agrees). */
export const ALIAS_READERS = Permission.runProjectTasks;
