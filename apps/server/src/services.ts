import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import { randomUUID } from 'node:crypto';
import { projectCheckoutsDirectory } from '@gantry/runner';
import { createClusterBus } from './cluster/cluster-bus.ts';
import { createStoreSweep } from './cluster/store-sweep.ts';
import { createNodePresence } from './cluster/node-presence.ts';
import { createNodesRepository } from './cluster/nodes.repository.ts';
import { createClusteredHub } from './cluster/clustered-hub.ts';
import { createLiveHub } from './live/live-hub.ts';
import { createLiveMembership } from './live/live-membership.ts';
import { createSessionCookies } from './http/session-cookie.ts';
import { createBuildAutorun } from './modules/tasks/build-autorun.ts';
import { createTaskEngine } from './modules/tasks/task-engine.ts';
import { createStartDescriber } from './modules/tasks/task-start.ts';
import { createAlertChannels } from './modules/alerts/alert-channels.ts';
import { createAlertDispatcher } from './modules/alerts/alert-dispatcher.ts';
import { createAlertsRepository } from './modules/alerts/alerts.repository.ts';
import { createTaskLogFactory } from './modules/tasks/task-log.ts';
import { createTaskLogSpool, spoolDirOf } from './modules/tasks/task-log-spool.ts';
import { createTaskOutput } from './modules/tasks/task-output.ts';
import { createTaskOutputRepository } from './modules/tasks/task-output.repository.ts';
import { createTaskHosts } from './modules/tasks/task-hosts.ts';
import { createTaskHostsRepository } from './modules/tasks/task-hosts.repository.ts';
import { createTaskPlans } from './modules/tasks/task-plan.ts';
import { createTaskPlanRepository } from './modules/tasks/task-plan.repository.ts';
import { createTaskOutputs } from './modules/tasks/task-outputs.ts';
import { createTaskOutputsRepository } from './modules/tasks/task-outputs.repository.ts';
import { createTaskRerun } from './modules/tasks/task-rerun.ts';
import { createTaskApprovalAnnouncer, createTaskApprovals } from './modules/tasks/task-approvals.ts';
import { owedAlertStoreOf } from './modules/approvals/owed-alert.repository.ts';
import { createTaskRetries } from './modules/tasks/task-retries.ts';
import { createTaskApprovalsRepository } from './modules/tasks/task-approvals.repository.ts';
import { createApprovalGates } from './modules/approvals/approval-gate.ts';
import { createApprovalsRepository } from './modules/approvals/approvals.repository.ts';
import { createTaskSpecBuilder } from './modules/tasks/task-spec-builder.ts';
import { createTasksRepository } from './modules/tasks/tasks.repository.ts';
import { createTasksService } from './modules/tasks/tasks.service.ts';
import { createTaskCreation } from './modules/tasks/task-creation.ts';
import { createTaskHistory } from './modules/tasks/task-history.ts';
import { createScheduler } from './modules/schedules/scheduler.ts';
import { createReadiness } from './modules/system/readiness.ts';
import { countWebhookCalls } from './metrics/instrumented-webhooks.ts';
import { createMetrics } from './metrics/metrics.ts';
import { createMetricsRepository } from './metrics/metrics.repository.ts';
import { createSystemRepository } from './modules/system/system.repository.ts';
import { createTaskRetention } from './modules/tasks/task-retention.ts';
import { createTaskRetentionRepository } from './modules/tasks/task-retention.repository.ts';
import { LOG_SEARCH_LIMITS, createLogMatcher } from './modules/tasks/log-matcher.ts';
import { createTaskLogSearch } from './modules/tasks/task-log-search.ts';
import { createTaskLogIndexRepository } from './modules/tasks/task-log-index.repository.ts';
import { createTaskLogIndexer } from './modules/tasks/task-log-indexer.ts';
import { createLogsSearch } from './modules/tasks/logs-search.ts';
import { createSchedulesRepository } from './modules/schedules/schedules.repository.ts';
import { createSchedulesService } from './modules/schedules/schedules.service.ts';
import { createIntegrationsRepository } from './modules/integrations/integrations.repository.ts';
import { createIntegrationsService } from './modules/integrations/integrations.service.ts';
import { createWebhookService } from './modules/integrations/webhook.service.ts';
import type { Config } from './config.ts';
import type { DbConnection } from './db/connect.ts';
import { createAppsRepository } from './modules/apps/apps.repository.ts';
import { createAppsService } from './modules/apps/apps.service.ts';
import { createAuthRepository } from './modules/auth/auth.repository.ts';
import { createAuthService } from './modules/auth/auth.service.ts';
import { createBackupService } from './modules/backup/backup.service.ts';
import { createLoginThrottle } from './modules/auth/login-throttle.ts';
import { createExternalUsers } from './modules/auth/external/external-users.ts';
import { createGroupMapper } from './modules/auth/external/group-mapping.ts';
import { createLdapDirectory } from './modules/auth/ldap/ldap-directory.ts';
import { createLdapLogin } from './modules/auth/ldap/ldap-login.ts';
import { createOidcClients } from './modules/auth/oidc/oidc-clients.ts';
import { createOidcService } from './modules/auth/oidc/oidc.service.ts';
import { createTotpRepository } from './modules/auth/totp.repository.ts';
import { createTotpService } from './modules/auth/totp.service.ts';
import { createSessionLookup } from './modules/auth/session.ts';
import { createEnvironmentsRepository } from './modules/environments/environments.repository.ts';
import { createEnvironmentsService } from './modules/environments/environments.service.ts';
import { createEventsRepository } from './modules/events/events.repository.ts';
import { createEventsService } from './modules/events/events.service.ts';
import { createInventoriesRepository } from './modules/inventories/inventories.repository.ts';
import { createInventoriesService } from './modules/inventories/inventories.service.ts';
import { createKeysRepository } from './modules/keys/keys.repository.ts';
import { createKeysService } from './modules/keys/keys.service.ts';
import { createProjectsRepository } from './modules/projects/projects.repository.ts';
import { announceMemberChanges } from './modules/projects/member-changes.ts';
import { createProjectSeeder } from './modules/projects/project-seed.ts';
import { createProjectsService, findMemberAccess } from './modules/projects/projects.service.ts';
import { createRefsRepository } from './modules/refs/refs.repository.ts';
import { createRepositoriesRepository } from './modules/repositories/repositories.repository.ts';
import { createRepositoriesService } from './modules/repositories/repositories.service.ts';
import { createTeamService } from './modules/projects/team.service.ts';
import { createTemplatesRepository } from './modules/templates/templates.repository.ts';
import { createTemplatesService } from './modules/templates/templates.service.ts';
import { createUsersRepository } from './modules/users/users.repository.ts';
import { createUsersService } from './modules/users/users.service.ts';
import { createUserAccounts } from './modules/users/user-accounts.ts';
import { createProjectMembers } from './modules/projects/project-members.ts';
import { createViewsRepository } from './modules/views/views.repository.ts';
import { createViewsService } from './modules/views/views.service.ts';
import { createWorkflowRunsRepository } from './modules/workflows/workflow-runs.repository.ts';
import { createWorkflowRuns } from './modules/workflows/workflow-runs.service.ts';
import { createWorkflowsRepository } from './modules/workflows/workflows.repository.ts';
import { createWorkflowsService } from './modules/workflows/workflows.service.ts';
import { createTerraformBackendService, localServerUrl } from './modules/terraform/terraform-backend.service.ts';
import { createTerraformRepository } from './modules/terraform/terraform.repository.ts';
import { createTerraformService } from './modules/terraform/terraform.service.ts';
import { createWorkspacesService } from './modules/terraform/workspaces.service.ts';
import { createRunnerJobs } from './modules/runners/runner-jobs.ts';
import { createRunnerPlacement } from './modules/runners/runner-placement.ts';
import { createRunnerRegistration } from './modules/runners/runner-registration.ts';
import { createRunnersRepository } from './modules/runners/runners.repository.ts';
import { createRunnersService } from './modules/runners/runners.service.ts';
import { loadEncryptionKey } from './secrets/encryption-key.ts';
import { createSecretBox } from './secrets/secret-box.ts';

/** The one place where every service is built and wired to its dependencies. */
export function createServices({
  config,
  connection,
  clock,
  logger,
}: {
  config: Config;
  connection: DbConnection;
  clock: Clock;
  logger: FastifyBaseLogger;
}) {
  const { db, dialect } = connection;
  const secrets = createSecretBox(loadEncryptionKey(config.access_key_encryption, config.data_dir));
  const refs = createRefsRepository(db);
  const usersRepository = createUsersRepository(db, dialect);
  const storedProjects = createProjectsRepository(db, dialect);
  const tasksRepository = createTasksRepository(db, dialect);
  const outputRepository = createTaskOutputRepository(db, dialect);
  const localHub = createLiveHub({
    readLines: async (taskId, fromSeq, limit) =>
      (await outputRepository.list(taskId, fromSeq, limit)).map((l) => ({
        seq: l.seq,
        time: l.time,
        output: l.output,
      })),
    membership: createLiveMembership({ listMemberIds: (projectId) => storedProjects.listMemberIds(projectId), clock }),
  });
  // Nodes sharing one store share their live events and task requests through Redis when it is configured.
  const nodeId = randomUUID();
  const nodes = createNodesRepository(db);
  const clusterBus = config.redis_url
    ? createClusterBus({
        url: config.redis_url,
        nodeId,
        readClusterId: () => nodes.getClusterId(),
        signingKey: secrets.deriveKey('cluster bus'),
        logger,
      })
    : undefined;
  const hub = clusterBus ? createClusteredHub(localHub, clusterBus) : localHub;
  const projectsRepository = announceMemberChanges(storedProjects, (projectId, removedUserId) =>
    hub.membershipChanged(projectId, removedUserId),
  );
  const findMember = (userId: number, projectId: number) =>
    findMemberAccess((id) => usersRepository.findById(id), projectsRepository, userId, projectId);
  const templatesRepository = createTemplatesRepository(db, dialect);
  const events = createEventsService({ events: createEventsRepository(db), clock });
  const authRepository = createAuthRepository(db, dialect);
  const throttleLimits = {
    attempts: authRepository,
    clock,
    maxFailures: config.login_max_failures,
    windowMs: config.login_failure_window_seconds * 1000,
  };
  const throttle = createLoginThrottle({
    ...throttleLimits,
    describeRefusal: (seconds) => `Too many failed sign-in attempts. Try again in ${seconds} seconds.`,
  });
  const userAccounts = createUserAccounts(usersRepository, (userId, admin) => hub.adminChanged(userId, admin));
  const members = createProjectMembers({ projects: projectsRepository, clock });
  const externalUsers = createExternalUsers({
    users: userAccounts,
    groupMapper: createGroupMapper({ users: userAccounts, members }),
    clock,
  });
  const sessions = createSessionLookup({ config, clock, auth: authRepository });
  const totp = createTotpService({
    config,
    clock,
    secrets,
    totp: createTotpRepository(db, dialect),
    events,
    throttle: createLoginThrottle({
      ...throttleLimits,
      describeRefusal: (seconds) => `Too many wrong codes. Try again in ${seconds} seconds.`,
    }),
    sessions,
  });
  const auth = createAuthService({
    config,
    clock,
    auth: authRepository,
    users: userAccounts,
    throttle,
    sessions,
    ldap: createLdapLogin({ config, directory: createLdapDirectory(config), externalUsers, logger }),
    pendingFactorFor: totp.pendingFactorFor,
    onCredentialsEnded: (ended) => hub.endCredentials(ended),
  });
  const users = createUsersService({
    users: usersRepository,
    events,
    clock,
    onPasswordChanged: (userId, keepSessionToken) => auth.endCredentialsAfterPasswordChange(userId, keepSessionToken),
    onRemoved: (userId) => hub.endCredentials({ userId }),
    onAdminChanged: (userId, admin) => hub.adminChanged(userId, admin),
    verifyCurrentPassword: (user, password) => auth.verifyCurrentPassword(user, password),
  });
  const keys = createKeysService({ keys: createKeysRepository(db, dialect), refs, events, secrets, clock });
  const repositories = createRepositoriesService({
    repositories: createRepositoriesRepository(db, dialect),
    keys,
    refs,
    events,
    clock,
  });
  const environments = createEnvironmentsService({
    environments: createEnvironmentsRepository(db, dialect),
    refs,
    events,
    secrets,
    clock,
  });
  const inventories = createInventoriesService({
    inventories: createInventoriesRepository(db, dialect),
    keys,
    repositories,
    templateExists: async (projectId, templateId) =>
      (await templatesRepository.find(projectId, templateId)) !== undefined,
    refs,
    events,
    clock,
  });
  const terraformRepository = createTerraformRepository(db, dialect);
  const terraform = createTerraformService({
    terraform: terraformRepository,
    inventories,
    keys,
    events,
    clock,
    publicUrl: config.web_host,
  });
  const terraformBackend = createTerraformBackendService({
    terraform: terraformRepository,
    keys,
    clock,
    throttle: createLoginThrottle({
      ...throttleLimits,
      describeRefusal: (seconds) => `Too many wrong backend credentials. Try again in ${seconds} seconds.`,
    }),
    taskPasswordKey: secrets.deriveKey('terraform task backend'),
    internalUrl: config.web_host || localServerUrl(config.host, config.port),
  });
  const workspaces = createWorkspacesService({
    templates: templatesRepository,
    inventories: createInventoriesRepository(db, dialect),
    events,
    clock,
  });
  const views = createViewsService({ views: createViewsRepository(db, dialect), events });
  const apps = createAppsService({ apps: createAppsRepository(db), events });
  const workflowRunsRepository = createWorkflowRunsRepository(db, dialect);
  const taskHistory = createTaskHistory({
    tasks: tasksRepository,
    runsOfTasks: (projectId, taskIds) => workflowRunsRepository.listRunsOfTasks(projectId, taskIds),
  });
  const gates = createApprovalGates({ approvals: createApprovalsRepository(db) });
  const templates = createTemplatesService({
    templates: templatesRepository,
    apps,
    keys,
    repositories,
    inventories,
    environments,
    views,
    refs,
    events,
    clock,
    lastTasks: taskHistory.lastPerTemplate,
    listApproverIds: async (projectId, userIds) =>
      (await gates.listApprovers(projectId, userIds, [])).map((approver) => approver.id),
    onCreated: (projectId, templateId) => workspaces.ensureDefault(projectId, templateId),
  });
  const workflows = createWorkflowsService({
    workflows: createWorkflowsRepository(db, dialect),
    templates,
    inventories,
    environments,
    listMembers: (projectId) => storedProjects.listMembers(projectId, 'name', 'asc'),
    events,
    clock,
  });
  const metrics = createMetrics({
    repository: createMetricsRepository(db),
    clock,
    runnerOfflineMs: config.runner_offline_seconds * 1000,
    websocketClients: () => hub.size,
  });
  const audienceOf = async (projectId: number) => ({
    memberIds: new Set(await projectsRepository.listMemberIds(projectId)),
  });
  const alertsRepository = createAlertsRepository(db);
  const alerts = createAlertDispatcher({
    channels: createAlertChannels(config, (projectId) => alertsRepository.listRecipients(projectId)),
    alerts: alertsRepository,
    webHost: config.web_host,
    timeoutMs: config.alert_timeout_seconds * 1000,
    clock,
    logger,
  });
  const describeStart = createStartDescriber({
    tasks: tasksRepository,
    findUsername: async (userId) => (await usersRepository.findById(userId))?.username,
    findTemplateName: async (projectId, templateId) => (await templatesRepository.find(projectId, templateId))?.name,
  });
  // One builder for the tasks run here and those handed to runners: a task's spec is the same wherever it runs.
  const specs = createTaskSpecBuilder({
    config,
    secrets,
    apps,
    keys,
    repositories,
    inventories,
    environments,
    templates,
    terraformBackend,
  });
  const logIndex = createTaskLogIndexRepository(db, dialect);
  const logIndexer = createTaskLogIndexer({ index: logIndex, logger });
  const logsSearch = createLogsSearch({ index: logIndex });
  const output = createTaskOutput({ output: outputRepository, hub, clock, audienceOf });
  const taskHosts = createTaskHosts({ hosts: createTaskHostsRepository(db), tasks: tasksRepository, clock });
  const taskPlans = createTaskPlans({ plans: createTaskPlanRepository(db), tasks: tasksRepository });
  const taskOutputs = createTaskOutputs({ outputs: createTaskOutputsRepository(db), tasks: tasksRepository });
  const runnersRepository = createRunnersRepository(db, dialect);
  const runnerPlacement = createRunnerPlacement({
    config,
    clock,
    logger,
    runners: runnersRepository,
    findTask: (taskId) => tasksRepository.findById(taskId),
    ...(clusterBus
      ? {
          broadcast: (runnerId, taskId, change) =>
            clusterBus.publish({ kind: 'runner', runner_id: runnerId, task_id: taskId, change }),
        }
      : {}),
  });
  const approvalAnnouncer = createTaskApprovalAnnouncer({
    output,
    alertWaiting: (task, gate, owed) => alerts.notifyTaskApproval(task, gate, owed),
    owedAlertOf: (taskId) => owedAlertStoreOf(db, 'task', taskId),
    clock,
  });
  const createTask = createTaskCreation({
    tasks: tasksRepository,
    output: outputRepository,
    templates,
    inventories,
    environments,
    events,
    secrets,
    clock,
    onWaitingApproval: approvalAnnouncer.announce,
  });
  const taskRetries = createTaskRetries({
    tasks: tasksRepository,
    templates,
    createTask,
    findMember,
    output,
    clock,
    logger,
  });
  // The engine reads the queue again after a task's after-work, so the followers need no wake of their own.
  const runFollowers = createBuildAutorun({
    templates,
    createTask: (projectId, body) => createTask(projectId, body, {}),
  });
  const spool = createTaskLogSpool(spoolDirOf(config.data_dir, config.db_dialect, config.db_url), logger);
  const engine = createTaskEngine({
    nodeId,
    ...(clusterBus
      ? { control: { send: (taskId, action) => clusterBus.publish({ kind: 'control', task_id: taskId, action }) } }
      : {}),
    config,
    placement: runnerPlacement.placement,
    tasks: tasksRepository,
    specs,
    output,
    spool,
    openLog: createTaskLogFactory({
      output: outputRepository,
      hub,
      clock,
      logger,
      spool,
      onStored: (count) => metrics.logLinesStored(count),
    }),
    hub,
    events,
    clock,
    logger,
    audienceOf,
    describeStart,
    saveHosts: taskHosts.save,
    savePlan: taskPlans.save,
    saveOutputs: taskOutputs.save,
    onWaitingConfirmation: (taskId) => alerts.notifyWaiting(taskId),
    onFinished: async (task) => {
      alerts.notify(task);
      metrics
        .taskFinished(task)
        .catch((error: unknown) => logger.warn({ err: error, taskId: task.id }, 'task metrics not recorded'));
      logIndexer.add(task.id);
      await runFollowers(task);
      await taskRetries.onFinished(task);
    },
  });
  const taskApprovals = createTaskApprovals({
    tasks: tasksRepository,
    announcer: approvalAnnouncer,
    approvals: createTaskApprovalsRepository(db, dialect),
    gates,
    engine,
    output,
    events,
    clock,
    logger,
  });
  // A retry made by the sweep joins the queue: the engine is told, as the tasks service tells it of a new task.
  const retrySweep = createStoreSweep({
    name: 'retry sweep',
    listDue: taskRetries.listDue,
    handle: async (task) => {
      if (await taskRetries.retry(task)) engine.wake();
    },
    describe: (task) => ({ taskId: task.id }),
    logger,
    intervalMs: 1000,
  });
  const presence = clusterBus
    ? createNodePresence({
        nodeId,
        nodes,
        clock,
        logger,
        closeOrphanedTasks: (aliveNodes) => engine.recover({ aliveNodes }),
        onSwept: async () => {
          engine.wake();
          await engine.followStoredRequests();
        },
      })
    : undefined;
  const logSearch = createTaskLogSearch({
    readLines: (taskId, afterSeq, step) => outputRepository.listText(taskId, afterSeq, step),
    matcher: createLogMatcher(LOG_SEARCH_LIMITS),
  });
  const tasks = createTasksService({
    tasks: tasksRepository,
    output: outputRepository,
    templates,
    createTask,
    history: taskHistory,
    engine,
    events,
    clock,
    logSearch,
  });
  const rerunFailedHosts = createTaskRerun({
    tasks: tasksRepository,
    listFailedHosts: taskHosts.listFailedHosts,
    create: tasks.create,
  });
  const runnerJobs = createRunnerJobs({
    config,
    clock,
    logger,
    runners: runnersRepository,
    specs,
    engine,
    placement: runnerPlacement,
    output,
    events,
    audienceOf,
    describeStart,
    saveHosts: taskHosts.save,
    savePlan: taskPlans.save,
    saveOutputs: taskOutputs.save,
  });
  clusterBus?.onMessage((message) => {
    if (message.kind === 'control') engine.applyControl(message.task_id, message.action);
    else if (message.kind === 'runner') runnerPlacement.hear(message.runner_id, message.task_id, message.change);
  });
  const runners = createRunnersService({
    runners: runnersRepository,
    events,
    clock,
    onRemoved: (runnerId) => runnerJobs.releaseRunner(runnerId),
    onChanged: () => engine.wake(),
  });
  const runnerRegistration = createRunnerRegistration({
    config,
    throttle: createLoginThrottle({
      ...throttleLimits,
      describeRefusal: (seconds) => `Too many wrong registration tokens. Try again in ${seconds} seconds.`,
    }),
    runners: runnersRepository,
    runnersService: runners,
    projectExists: async (projectId) => (await projectsRepository.findById(projectId)) !== undefined,
  });
  const workflowRuns = createWorkflowRuns({
    runs: workflowRunsRepository,
    workflows,
    tasks,
    findTask: (id) => tasksRepository.findById(id),
    listTaskOutputs: taskOutputs.listOf,
    findMember,
    events,
    gates,
    alertApproval: (waiting, owed) => alerts.notifyApproval(waiting, owed),
    owedAlertOf: (stepRunId) => owedAlertStoreOf(db, 'workflow_step_run', stepRunId),
    clock,
    logger,
  });
  const schedulesRepository = createSchedulesRepository(db, dialect);
  const scheduler = createScheduler({
    config,
    clock,
    logger,
    schedules: schedulesRepository,
    tasks,
    repositories,
    keys,
    workflowRuns,
    onRun: (result) => metrics.scheduleRun(result),
  });
  const taskRetention = createTaskRetention({
    config,
    clock,
    logger,
    history: createTaskRetentionRepository(db, dialect),
  });
  const readiness = createReadiness({
    system: createSystemRepository(db, dialect),
    schedulerRunning: () => scheduler.isRunning(),
    logger,
  });
  const schedules = createSchedulesService({
    config,
    clock,
    schedules: schedulesRepository,
    templates,
    repositories,
    events,
    workflowRuns,
    onChange: () => scheduler.wake(),
  });
  const integrationsRepository = createIntegrationsRepository(db, dialect);
  const integrations = createIntegrationsService({
    config,
    clock,
    integrations: integrationsRepository,
    templates,
    keys,
    events,
    workflowRuns,
  });
  const webhooks = countWebhookCalls(
    createWebhookService({ integrations: integrationsRepository, keys, tasks, workflowRuns, events, logger, clock }),
    metrics,
  );
  const backup = createBackupService({
    config,
    secrets,
    clock,
    db,
    dialect,
    apps,
    events,
    onSchedulesChanged: () => scheduler.wake(),
  });
  const projects = createProjectsService({
    config,
    clock,
    projects: projectsRepository,
    events,
    seedProject: createProjectSeeder({ keys, environments }),
    createDemo: (actor, body) => backup.createDemo(actor, body),
    listProjectFiles: async (projectId) => [
      projectCheckoutsDirectory(config.data_dir, projectId),
      ...(await backup.listOwnDemoRepositories(projectId)),
    ],
    stopProjectTasks: (projectId) => engine.stopProject(projectId),
    logger,
  });
  const team = createTeamService({ projects: projectsRepository, users: userAccounts, events, clock });
  const oidc = createOidcService({
    config,
    clock,
    secrets,
    clients: createOidcClients(config.oidc_providers),
    externalUsers,
    createSession: (userId, client) => auth.createSession(userId, client),
    logger,
  });
  const sessionCookies = createSessionCookies({ webHost: config.web_host });
  return {
    auth,
    sessionCookies,
    oidc,
    totp,
    users,
    projects,
    backup,
    team,
    events,
    keys,
    repositories,
    environments,
    inventories,
    terraform,
    terraformBackend,
    workspaces,
    views,
    apps,
    templates,
    workflows,
    workflowRuns,
    tasks,
    taskHosts,
    taskPlans,
    taskOutputs,
    rerunFailedHosts,
    logIndexer,
    logsSearch,
    taskApprovals,
    taskRetries,
    retrySweep,
    engine,
    runners,
    runnerJobs,
    runnerRegistration,
    hub,
    clusterBus,
    presence,
    schedules,
    scheduler,
    readiness,
    metrics,
    taskRetention,
    integrations,
    webhooks,
    alerts,
    logger,
  };
}

export type Services = ReturnType<typeof createServices>;
